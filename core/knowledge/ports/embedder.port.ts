export interface EmbedOptions {
  /** The key of the call, for provider embedders. */
  apiKey?: string;
  signal?: AbortSignal;
  /** Called with the tokens a provider counted, per request, when it reports them (for metering). */
  onUsage?: (tokens: number) => void;
}

/** Turns texts into vectors. `model` and `dimension` are recorded per document. */
export interface Embedder {
  readonly model: string;
  readonly dimension: number;
  /** One vector per text, same order; vectors are L2-normalized. `apiKey` for provider embedders. */
  embed(texts: string[], options?: EmbedOptions): Promise<number[][]>;
}

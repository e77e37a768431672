/** Turns texts into vectors. `model` and `dimension` are recorded per document. */
export interface Embedder {
  readonly model: string;
  readonly dimension: number;
  /** One vector per text, same order; vectors are L2-normalized. `apiKey` for provider embedders. */
  embed(texts: string[], options?: { apiKey?: string; signal?: AbortSignal }): Promise<number[][]>;
}

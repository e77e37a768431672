import type { ChatRequest, ChatResult, LlmProvider, LlmProviderRegistry, StreamPart, TokenUsage } from '../../core/ai/ports/llm-provider.port';
import { PROVIDER_IDS, type ProviderId } from '../../core/ai/domain/provider-id';
import { estimateTokens } from '../../core/shared/tokens';

/** What a scripted turn answers: text, a whole result, an error to throw, or a function of the request. */
export type ScriptedAnswer =
  | string
  | { content: string; usage?: Partial<TokenUsage>; model?: string }
  | Error
  | ((request: ChatRequest & { provider: ProviderId }) => string | { content: string; usage?: Partial<TokenUsage>; model?: string } | Error | Promise<string | { content: string; usage?: Partial<TokenUsage>; model?: string } | Error>);

/**
 * A model provider answering from a script, for programs that test against the in-memory platform: answers
 * queued with `reply` are used in order, then `fallback` (by default "Echo: " and the user's last message).
 * Every request is recorded in `requests`. Usage is the answer's own or estimated from the text (4 characters
 * a token). Serves every provider id; the platform key of each is `platformKey`.
 */
export class ScriptedModelProvider implements LlmProviderRegistry {
  readonly requests: Array<ChatRequest & { provider: ProviderId }> = [];
  private readonly queue: ScriptedAnswer[] = [];
  private readonly providers = new Map<ProviderId, LlmProvider>();

  constructor(
    private readonly options: { fallback?: ScriptedAnswer; platformKey?: string | null; models?: string[] } = {},
  ) {
    for (const id of PROVIDER_IDS) this.providers.set(id, this.provider(id));
  }

  /** Queues answers for the next turns, in order. */
  reply(...answers: ScriptedAnswer[]): this {
    this.queue.push(...answers);
    return this;
  }

  /** Answers still queued. */
  get pending(): number {
    return this.queue.length;
  }

  /** The user's message of the last request, if any. */
  get lastUserMessage(): string | undefined {
    return this.requests.at(-1)?.messages.filter((m) => m.role === 'user').at(-1)?.content;
  }

  get(id: ProviderId): LlmProvider {
    return this.providers.get(id)!;
  }

  platformKey(): string | undefined {
    const key = this.options.platformKey;
    return key === null ? undefined : (key ?? 'scripted-platform-key');
  }

  private provider(id: ProviderId): LlmProvider {
    const answer = async (request: ChatRequest): Promise<ChatResult> => {
      const recorded = { ...request, provider: id };
      this.requests.push(recorded);
      const script = this.queue.shift() ?? this.options.fallback ?? echo;
      let result = typeof script === 'function' ? await script(recorded) : script;
      if (result instanceof Error) throw result;
      if (typeof result === 'string') result = { content: result };
      const prompt = estimateTokens([request.system ?? '', ...request.messages.map((m) => m.content)].join('\n'));
      const completion = estimateTokens(result.content);
      const usage = { promptTokens: prompt, completionTokens: completion, totalTokens: prompt + completion, ...result.usage };
      if (!result.usage?.totalTokens) usage.totalTokens = usage.promptTokens + usage.completionTokens;
      return { content: result.content, usage, model: result.model ?? request.model };
    };
    return {
      id,
      chat: (request) => answer(request),
      async *stream(request): AsyncIterable<StreamPart> {
        const result = await answer(request);
        for (const piece of result.content.match(/\S+\s*|\s+/g) ?? []) yield { type: 'delta', text: piece };
        yield { type: 'usage', usage: result.usage };
      },
      listModels: async () => this.options.models ?? [],
    };
  }
}

const echo: ScriptedAnswer = (request) => `Echo: ${request.messages.filter((m) => m.role === 'user').at(-1)?.content ?? ''}`;

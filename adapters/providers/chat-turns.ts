import type { ChatRequest, ChatTurn, TokenUsage } from '../../core/ai/ports/llm-provider.port';
import { estimateTokens } from '../../core/shared/tokens';

/** The system text of a request; a bare settings.systemPrompt counts when no composed system text is given. */
export function systemOf(request: ChatRequest): string | undefined {
  const system = request.system ?? request.settings.systemPrompt;
  return system && system.trim() !== '' ? system : undefined;
}

/**
 * Turns as the stricter APIs want them: opening with a user turn, roles alternating (a failed
 * answer in the history leaves two user turns in a row; they are joined).
 */
export function alternatingTurns(turns: ChatTurn[]): ChatTurn[] {
  const result: ChatTurn[] = [];
  for (const turn of turns) {
    if (result.length === 0 && turn.role !== 'user') continue;
    const last = result[result.length - 1];
    if (last && last.role === turn.role) last.content = `${last.content}\n\n${turn.content}`;
    else result.push({ role: turn.role, content: turn.content });
  }
  return result;
}

export function usageOf(promptTokens: number, completionTokens: number): TokenUsage {
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}

/** For a gateway that reports no usage: the provider-neutral estimate. */
export function estimatedUsage(request: ChatRequest, answer: string): TokenUsage {
  const prompt = [systemOf(request) ?? '', ...request.messages.map((m) => m.content)].join('\n');
  return { ...usageOf(estimateTokens(prompt), estimateTokens(answer)), estimated: true };
}

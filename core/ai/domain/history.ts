import { estimateTokens } from '../../shared/tokens';
import type { ChatTurn } from '../ports/llm-provider.port';

/**
 * The most recent turns that fit the model's context window next to the system text and the answer
 * budget. The newest turn (the user's message) is always kept, cut from the front if it alone is too long.
 */
export function fitHistory(turns: ChatTurn[], budgetTokens: number): ChatTurn[] {
  const kept: ChatTurn[] = [];
  let used = 0;
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i]!;
    const cost = estimateTokens(turn.content) + 4 + (turn.toolCalls ?? []).reduce((n, c) => n + estimateTokens(c.arguments) + 8, 0);
    if (kept.length > 0 && used + cost > budgetTokens) break;
    if (kept.length === 0 && cost > budgetTokens) {
      const chars = Math.max(1, budgetTokens * 4);
      kept.push({ role: turn.role, content: turn.content.slice(-chars) });
      break;
    }
    kept.push(turn);
    used += cost;
  }
  kept.reverse();
  // Providers expect the conversation to open with a user turn (which also drops tool results cut from their call).
  while (kept.length > 1 && kept[0]!.role !== 'user') kept.shift();
  return kept;
}

/**
 * A history for a request that offers no tools: the calls and their results left out (providers refuse
 * tool turns without tool definitions), keeping the text the model wrote around them.
 */
export function withoutToolTurns(turns: ChatTurn[]): ChatTurn[] {
  const out: ChatTurn[] = [];
  for (const turn of turns) {
    if (turn.role === 'tool') continue;
    if (turn.toolCalls) {
      if (turn.content !== '') out.push({ role: turn.role, content: turn.content });
      continue;
    }
    out.push(turn);
  }
  return out;
}

/**
 * The emulator's deterministic tool use, shared by the four protocols. A user message (or a tool's
 * output, as a prompt injection would) holding `[[call NAME {json}]]` makes the model call NAME with
 * those arguments (several directives: parallel calls, unless parallel calls are off); `[[loop NAME
 * {json}]]` calls again after every result (a model that never stops). Once results came back, the model
 * answers with them: `NAME returned: <content>`. `toolChoice` none never calls; `required` or one named
 * tool calls it with `{}` when no directive says otherwise.
 */

export type EmulatedChoice = 'auto' | 'none' | 'required' | { name: string };

export interface ToolResultSeen {
  name: string;
  content: string;
}

export interface ToolState {
  /** Names of the tools the request offers. */
  offered: string[];
  choice: EmulatedChoice;
  parallel: boolean;
  /** The text of the last user message that holds text (tool results excluded). */
  lastUser: string;
  /** Tool results since that user message, oldest first. */
  results: ToolResultSeen[];
}

export interface PlannedCall {
  name: string;
  /** The arguments' JSON text as the directive wrote it. */
  argsText: string;
  /** Parsed, or `{}` when the text is not a JSON object (providers sending objects need one). */
  args: Record<string, unknown>;
}

const DIRECTIVE = /\[\[(call|loop)\s+([^\s\]]+)\s*([\s\S]*?)\]\]/g;

function directives(text: string): Array<PlannedCall & { loop: boolean }> {
  const found: Array<PlannedCall & { loop: boolean }> = [];
  for (const m of text.matchAll(DIRECTIVE)) {
    const argsText = m[3]!.trim() || '{}';
    let args: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(argsText);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) args = parsed as Record<string, unknown>;
    } catch {
      // Left as text: OpenAI-style providers pass it on verbatim, as a model writing bad JSON would.
    }
    found.push({ loop: m[1] === 'loop', name: m[2]!, argsText, args });
  }
  return found;
}

/** The calls the model makes now, or null when it answers in text. */
export function planToolCalls(state: ToolState): PlannedCall[] | null {
  if (state.offered.length === 0 || state.choice === 'none') return null;
  let calls: PlannedCall[];
  if (state.results.length) {
    // After results: loops go on, and instructions inside tool output are followed (prompt injection).
    const fromUser = directives(state.lastUser).filter((d) => d.loop);
    const injected = state.results.flatMap((r) => directives(r.content));
    calls = [...fromUser, ...injected];
  } else {
    calls = directives(state.lastUser);
    if (!calls.length && state.choice === 'required') calls = [{ name: state.offered[0]!, argsText: '{}', args: {} }];
    if (!calls.length && typeof state.choice === 'object') calls = [{ name: state.choice.name, argsText: '{}', args: {} }];
  }
  if (!calls.length) return null;
  const plain = calls.map(({ name, argsText, args }) => ({ name, argsText, args }));
  return state.parallel ? plain : plain.slice(0, 1);
}

/** The answer once results came back. */
export function answerFromResults(results: ToolResultSeen[]): string {
  return results.map((r) => `${r.name} returned: ${r.content}`).join('\n');
}

/** Splits a JSON text into a few pieces, as providers stream arguments. */
export function argumentPieces(text: string): string[] {
  const size = Math.max(1, Math.ceil(text.length / 3));
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces.length ? pieces : [''];
}

import { randomUUID } from 'node:crypto';
import type { ChatTurn, ToolCall } from '../../core/ai/ports/llm-provider.port';

/** Whether any turn carries tool calls or results (turns without them keep the plain text wire format). */
export const hasToolTurns = (turns: ChatTurn[]): boolean => turns.some((t) => t.role === 'tool' || (t.toolCalls?.length ?? 0) > 0);

/** Arguments as an object for the providers that want one (Anthropic, Gemini); text that is not a JSON object becomes `{}`. */
export function argumentsObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** An id for a call the provider gave none (Gemini). */
export const newCallId = (): string => `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`;

/** Arguments the provider sent as an object (some gateways do) or as text, as text. */
export const argumentsText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value ?? {}));

interface OpenAiStyleDelta {
  index?: number;
  id?: string | null;
  function?: { name?: string | null; arguments?: unknown } | null;
}

/**
 * Assembles OpenAI-style streamed tool calls: the first delta of a call carries its index, id and name,
 * the next ones pieces of its arguments. The calls are complete once the stream ends.
 */
export class ToolCallAssembler {
  private readonly calls = new Map<number, { id: string; name: string; args: string }>();

  add(deltas: OpenAiStyleDelta[] | OpenAiStyleDelta | null | undefined): void {
    if (!deltas) return;
    for (const d of Array.isArray(deltas) ? deltas : [deltas]) {
      const index = typeof d.index === 'number' ? d.index : 0;
      let call = this.calls.get(index);
      if (!call) {
        call = { id: '', name: '', args: '' };
        this.calls.set(index, call);
      }
      if (d.id) call.id = d.id;
      if (d.function?.name) call.name += d.function.name;
      const piece = d.function?.arguments;
      if (piece !== undefined && piece !== null) call.args += argumentsText(piece);
    }
  }

  /** The assembled calls, in index order. */
  finish(): ToolCall[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, c]) => ({ id: c.id || newCallId(), name: c.name, arguments: c.args || '{}' }));
  }
}

const GEMINI_KEYWORDS = new Set(['type', 'format', 'description', 'nullable', 'enum', 'properties', 'required', 'items', 'minItems', 'maxItems', 'minimum', 'maximum', 'anyOf', 'propertyOrdering', 'title']);

/**
 * A JSON Schema as Gemini's function declarations take it: the OpenAPI subset the API knows (it refuses
 * other keywords such as `additionalProperties` or `$schema`); a type list with null becomes `nullable`.
 */
export function geminiSchema(schema: unknown): Record<string, unknown> {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!GEMINI_KEYWORDS.has(key)) continue;
    if (key === 'type' && Array.isArray(value)) {
      const types = value.filter((t) => t !== 'null');
      out.type = types[0] ?? 'string';
      if (types.length < value.length) out.nullable = true;
    } else if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, geminiSchema(s)]));
    } else if (key === 'items') {
      out.items = geminiSchema(value);
    } else if (key === 'anyOf' && Array.isArray(value)) {
      out.anyOf = value.map(geminiSchema);
    } else {
      out[key] = value;
    }
  }
  return out;
}

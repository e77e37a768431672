import type { NewMessage } from '../../conversations/ports/conversation-repository.port';
import { runToolLoop, type ToolLoopEvent, type ToolLoopResult } from '../../tools/use-cases/tool-loop';
import type { ToolRunnerRegistry } from '../../tools/ports/tool-runner.port';
import type { AnswerToolCall, ChatMessageRequest, TurnTools } from '../ports/chat-engine.port';
import type { ChatTurn } from '../ports/llm-provider.port';
import type { ChatEngineDeps, PreparedChat, ToolRuntime } from './prepare-chat';
import { tracedToolRunners } from '../../traces/use-cases/traced-chat';

/** Where no runtime is given (a deployment without tools), every call answers that it cannot run here. */
const NO_RUNNERS: ToolRunnerRegistry = { runnerFor: () => undefined };
const NO_SCHEMAS: ToolRuntime['schemas'] = { problemWithSchema: () => null, check: () => [] };

/** A started tool loop (docs/tools.md) and the turns it has made so far, kept even when it fails midway. */
export interface ToolTurn {
  loop: AsyncGenerator<ToolLoopEvent, ToolLoopResult>;
  turns: ChatTurn[];
}

/** Runs the turn loop on a prepared chat, with the tools and settings fixed by the request. */
export function startToolTurn(deps: ChatEngineDeps, chat: PreparedChat, tools: TurnTools, signal?: AbortSignal): ToolTurn {
  const turns: ChatTurn[] = [];
  const runtime = deps.tools ?? { schemas: NO_SCHEMAS, runners: NO_RUNNERS };
  const loop = runToolLoop(chat.trace ? { ...runtime, runners: tracedToolRunners(runtime.runners, chat.trace) } : runtime, {
    provider: chat.provider,
    request: chat.request,
    tools: tools.tools,
    settings: tools.settings,
    applicationId: chat.conversation.applicationId,
    ownerId: tools.ownerId,
    signal,
    turns,
  });
  return { loop, turns };
}

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The messages a loop's turns are stored as, in order, before the answer: assistant messages with their
 * calls, and one `tool` message per result. They carry no A/B version, usage or announcement: the
 * answer that follows them is the turn's answer for metrics, ratings and events.
 */
export function toolTurnMessages(chat: PreparedChat, turns: ChatTurn[]): NewMessage[] {
  return turns.map((turn): NewMessage => {
    if (turn.role === 'tool') {
      return {
        conversationId: chat.conversation.id,
        role: 'tool',
        content: turn.content,
        status: 'complete',
        toolCallId: turn.toolCallId ?? '',
        toolName: turn.name ?? '',
        isError: turn.isError === true,
        // The call's time, for the analytics of tool calls.
        latencyMs: turn.durationMs ?? null,
      };
    }
    return {
      conversationId: chat.conversation.id,
      role: 'assistant',
      content: turn.content,
      status: 'complete',
      provider: chat.providerId,
      model: chat.model,
      toolCalls: (turn.toolCalls ?? []).map((c) => ({ id: c.id, name: c.name, arguments: parsedOrText(c.arguments) })),
    };
  });
}

/** Stores the loop's turns in order (the repository keeps the order of what is submitted together). */
export async function storeToolTurns(deps: ChatEngineDeps, chat: PreparedChat, turns: ChatTurn[]): Promise<void> {
  if (!turns.length) return;
  await Promise.all(toolTurnMessages(chat, turns).map((m) => deps.conversations.addMessage(m)));
}

/** Whether a request runs the tool loop: tools enabled and offered (an empty list is a turn without tools). */
export function wantsTools(input: ChatMessageRequest): input is ChatMessageRequest & { tools: TurnTools } {
  return !!input.tools && input.tools.tools.length > 0 && input.tools.settings.enabledTools.length > 0;
}

export const answerToolCalls = (result: ToolLoopResult): AnswerToolCall[] =>
  result.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments, isError: c.isError, durationMs: c.durationMs }));

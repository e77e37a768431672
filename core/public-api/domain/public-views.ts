import type { ChatAnswer } from '../../ai/ports/chat-engine.port';
import type { Application } from '../../applications/domain/application';
import type { Conversation, Message, MessageSource, MessageToolCall } from '../../conversations/domain/conversation';
import type { PublicBranding } from '../../branding/domain/branding';

/**
 * What the widget needs to present an application, nothing private: its name; its theme (the colours
 * the owner chose in customization and branding, and every resolved CSS variable); its branding.
 */
export interface PublicApplicationView {
  id: string;
  name: string;
  slug: string;
  description: string;
  theme: { themeId: string | null; colors: Record<string, string>; variables?: Record<string, string> };
  branding?: PublicBranding;
}

export interface PublicMessageView {
  id: string;
  role: 'user' | 'assistant' | 'tool';
  content: string;
  /** The knowledge-base passages the answer drew on, for citations. */
  sources?: MessageSource[];
  /** An assistant message that called tools (run server-side): the calls. */
  toolCalls?: MessageToolCall[];
  /** A `tool` message: the call it answers, the tool's name, whether its content is an error. */
  toolCallId?: string;
  name?: string;
  isError?: boolean;
  createdAt: string;
}

export interface PublicConversationView {
  id: string;
  applicationId: string;
  title: string;
  createdAt: string;
  messages: PublicMessageView[];
}

/** The non-streaming answer of ARCHITECTURE.md. */
export type PublicAnswer = Pick<ChatAnswer, 'conversationId' | 'message' | 'usage' | 'provider' | 'model' | 'sources' | 'toolCalls' | 'stoppedBy'>;

export const toPublicApplicationView = (app: Application): PublicApplicationView => ({
  id: app.id,
  name: app.name,
  slug: app.slug,
  description: app.description,
  theme: { themeId: app.themeId, colors: { ...app.themeCustomization.colors } },
});

/** Failed turns hold no answer worth showing; interrupted ones keep the partial text the visitor saw. */
export const toPublicConversationView = (conversation: Conversation, messages: Message[]): PublicConversationView => ({
  id: conversation.id,
  applicationId: conversation.applicationId,
  title: conversation.title,
  createdAt: conversation.createdAt.toISOString(),
  messages: messages
    .filter((m) => m.status !== 'failed')
    .map((m) => ({
      id: m.id,
      role: m.role,
      content: m.content,
      ...(m.sources?.length ? { sources: m.sources } : {}),
      ...(m.toolCalls?.length ? { toolCalls: m.toolCalls } : {}),
      ...(m.role === 'tool' ? { toolCallId: m.toolCallId ?? '', name: m.toolName ?? '', isError: m.isError === true } : {}),
      createdAt: m.createdAt.toISOString(),
    })),
});

export const toPublicAnswer = (answer: ChatAnswer): PublicAnswer => ({
  conversationId: answer.conversationId,
  message: answer.message,
  usage: answer.usage,
  provider: answer.provider,
  model: answer.model,
  ...(answer.sources?.length ? { sources: answer.sources } : {}),
  ...(answer.toolCalls?.length ? { toolCalls: answer.toolCalls } : {}),
  ...(answer.stoppedBy ? { stoppedBy: answer.stoppedBy } : {}),
});

import { NotFoundError, ValidationError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { offsetOf } from '../../shared/pagination';
import { titleFrom, toConversationView, toMessageView, UNTITLED, type ConversationSource, type ConversationView } from '../../conversations/domain/conversation';
import { defaultModel, listCatalogModels } from '../domain/model-catalog';
import { isProviderId, PROVIDER_IDS } from '../domain/provider-id';
import type { ChatEngine, ChatMessageRequest, ConversationStart, ConversationWithMessages, ProviderInfo } from '../ports/chat-engine.port';
import type { NewConversation } from '../../conversations/ports/conversation-repository.port';
import type { ChatEngineDeps } from './prepare-chat';
import { SendChatMessageUseCase } from './send-chat-message.use-case';
import { StreamChatMessageUseCase } from './stream-chat-message.use-case';

const SOURCES: ConversationSource[] = ['dashboard', 'api', 'widget'];

/** The chat engine running in this process, on the conversation repository and the provider registry. */
export class InProcessChatEngine implements ChatEngine {
  private readonly send: SendChatMessageUseCase;
  private readonly streamer: StreamChatMessageUseCase;

  constructor(private readonly deps: ChatEngineDeps) {
    this.send = new SendChatMessageUseCase(deps);
    this.streamer = new StreamChatMessageUseCase(deps);
  }

  async providers(): Promise<ProviderInfo[]> {
    return PROVIDER_IDS.map((id) => ({
      id,
      defaultModel: defaultModel(id),
      models: listCatalogModels(id).map((m) => ({ id: m.id, maxOutputTokens: m.maxOutputTokens, contextWindow: m.contextWindow })),
      platformKeyConfigured: !!this.deps.providers.platformKey(id),
      acceptsAnyModel: id === 'provider_d',
    }));
  }

  async models(provider: string): Promise<ProviderInfo['models']> {
    if (!isProviderId(provider)) throw ValidationError.field('provider', `provider must be one of ${PROVIDER_IDS.join(', ')}`);
    return (await this.providers()).find((p) => p.id === provider)!.models;
  }

  async createConversation(input: ConversationStart): Promise<ConversationView> {
    return toConversationView(await this.deps.conversations.create(newConversation(input)));
  }

  async getConversation(id: string): Promise<ConversationWithMessages> {
    const conversation = isUuid(id) ? await this.deps.conversations.findById(id) : null;
    if (!conversation) throw new NotFoundError('Conversation');
    const messages = await this.deps.conversations.messages(conversation.id);
    return { ...toConversationView(conversation), messages: messages.map(toMessageView) };
  }

  async listConversations(applicationId: string, page: { page: number; limit: number }) {
    if (!isUuid(applicationId)) return { data: [], total: 0, page: page.page, limit: page.limit };
    const { items, total } = await this.deps.conversations.listByApplication(applicationId, offsetOf(page), page.limit);
    return { data: items.map(toConversationView), total, page: page.page, limit: page.limit };
  }

  async archiveConversation(id: string): Promise<void> {
    const conversation = isUuid(id) ? await this.deps.conversations.findById(id) : null;
    if (!conversation) throw new NotFoundError('Conversation');
    await this.deps.conversations.archive(conversation.id);
  }

  async sendMessage(conversationId: string, request: ChatMessageRequest, signal?: AbortSignal) {
    return this.send.execute(conversationId, request, signal, opening(conversationId, request));
  }

  async streamMessage(conversationId: string, request: ChatMessageRequest, signal?: AbortSignal) {
    return this.streamer.execute(conversationId, request, signal, opening(conversationId, request));
  }
}

/** Validates a conversation to create; `id` is the caller's, for one opened by its first message. */
function newConversation(input: ConversationStart, id?: string, firstMessage?: string): NewConversation {
  if (!isUuid(input?.applicationId)) throw ValidationError.field('applicationId', 'applicationId must be an application id');
  if (input.title !== undefined && (typeof input.title !== 'string' || input.title.length > 200)) {
    throw ValidationError.field('title', 'title must be a string of at most 200 characters');
  }
  const source = input.source ?? 'dashboard';
  if (!SOURCES.includes(source)) throw ValidationError.field('source', `source must be one of ${SOURCES.join(', ')}`);
  return {
    ...(id !== undefined ? { id } : {}),
    applicationId: input.applicationId,
    // Opened by its first message without a title: that message names it.
    title: input.title?.trim() || (typeof firstMessage === 'string' ? titleFrom(firstMessage) : UNTITLED),
    source,
    apiKeyId: input.apiKeyId ?? null,
    configVersionId: input.configVersionId ?? null,
  };
}

/** The conversation a first message opens: validated now, stored once the message itself is valid. */
function opening(conversationId: string, request: ChatMessageRequest): NewConversation | undefined {
  if (!request.startConversation) return undefined;
  if (!isUuid(conversationId)) throw ValidationError.field('conversationId', 'A new conversation needs a uuid for its id');
  return newConversation(request.startConversation, conversationId, request.content);
}

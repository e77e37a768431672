import { modelChoiceResolver } from '../../connections/use-cases/model-choice';
import type { PriceTable } from '../../ai/domain/model-catalog';
import { defaultPrices, withAnswerCost } from '../../conversations/domain/answer-cost';
import { randomUUID } from 'node:crypto';
import * as yup from 'yup';
import type { ChatStreamEvent } from '../../ai/ports/chat-engine.port';
import { titleFrom, type Conversation } from '../../conversations/domain/conversation';
import type { ChatTurn } from '../../conversations/ports/chat-policy.port';
import type { ConversationRepository } from '../../conversations/ports/conversation-repository.port';
import type { ChatTurnRunner } from '../../conversations/use-cases/run-chat-turn';
import type { Actor } from '../../shared/actor';
import { NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { str, validate } from '../../shared/validation';
import { applyConfigPatch, runSettings, variablesField } from '../domain/studio-config';
import { currentDraft, studioApplication, type StudioDeps } from './studio-deps';

const schema = yup.object({
  content: str().required('content is required').min(1, 'content must not be empty').max(100_000, 'content must be at most 100000 characters'),
  conversationId: str().typeError('conversationId must be text'),
  variables: variablesField('variables'),
  config: yup.mixed(),
});

/** Debug conversations are titled so in the playground's list, where they also appear. */
export const DEBUG_TITLE_PREFIX = 'Studio: ';

/**
 * `POST /api/applications/:appId/studio/debug/stream`: a chat turn on the draft (the saved one, with the
 * unsaved changes `config` carries laid over it) and the variables' values given, streamed as the
 * playground's. It runs through the same policies (keys and quota, knowledge, tools) with the draft in
 * place of the model config; end users' conversations and A/B metrics are untouched. The conversation is
 * the caller's own dashboard conversation without an A/B version, started by the first turn.
 */
export class StudioDebugChatUseCase {
  constructor(private readonly deps: StudioDeps & { conversations: ConversationRepository; runner: ChatTurnRunner; prices?: PriceTable }) {}

  async execute(appId: string, input: unknown, actor: Actor, signal?: AbortSignal): Promise<AsyncIterable<ChatStreamEvent>> {
    const application = await studioApplication(this.deps, appId, actor, 'read');
    const body = await validate(schema, input);
    const saved = (await currentDraft(this.deps, application.id)).config;
    const config = body.config === undefined ? saved : await applyConfigPatch(saved, body.config, modelChoiceResolver(this.deps.connections, { ownerId: application.ownerId, teamId: application.teamId ?? null }));
    const settings = runSettings(config, body.variables ?? {});
    let conversation: Conversation;
    let opening;
    if (body.conversationId !== undefined) {
      const found = isUuid(body.conversationId) ? await this.deps.conversations.findForTurn(body.conversationId) : null;
      // Only a dashboard conversation of this application outside any A/B test continues on the draft.
      const c = found?.conversation;
      if (!c || c.applicationId !== application.id || c.source !== 'dashboard' || c.configVersionId) throw new NotFoundError('Conversation');
      conversation = c;
    } else {
      const now = new Date();
      const title = `${DEBUG_TITLE_PREFIX}${titleFrom(body.content)}`.slice(0, 80);
      conversation = { id: randomUUID(), applicationId: application.id, title, status: 'active', source: 'dashboard', apiKeyId: null, configVersionId: null, createdAt: now, updatedAt: now };
      opening = { applicationId: application.id, title, source: 'dashboard' as const, apiKeyId: null, configVersionId: null };
    }
    const turn: ChatTurn = {
      ownerId: application.ownerId,
      application,
      conversation,
      content: body.content,
      source: 'dashboard',
      draft: { provider: config.provider, model: config.modelId, settings: { ...settings }, ...(config.retrieval ? { retrieval: { ...config.retrieval } } : {}) },
    };
    // The owner sees what each answer cost, as in the playground.
    return withAnswerCost(await this.deps.runner.stream(turn, { content: body.content, settings: {} }, signal, opening), this.deps.prices ?? defaultPrices());
  }
}

import type { DataSource } from 'typeorm';
import type { EventType } from '../../core/events/domain/domain-event';
import type { Cache } from '../../core/shared/cache.port';
import type { Webhook } from '../../core/webhooks/domain/webhook';
import type { NewWebhook } from '../../core/webhooks/ports/webhook-repository.port';
import type { Workflow } from '../../core/workflows/domain/workflow';
import type { NewWorkflow } from '../../core/workflows/ports/workflow-repository.port';
import { ambientTransaction, one } from '../persistence/sql';
import { TypeOrmWebhookRepository } from '../persistence/webhooks/type-orm-webhook.repository';
import { SqlWorkflowRepository } from '../persistence/workflows/sql-workflow.repository';

/*
 * Every domain event (two or three per chat turn) is offered to the webhooks and the workflows of its owner,
 * and most owners have neither: these repositories remember, per owner, that there is none (regions `wh` and
 * `wf`), and skip the lookup then. Only a new row can make "none" wrong: `create` invalidates the owner's entry
 * (again after the commit when it runs in a transaction), and moving applications to another owner
 * (CachedApplicationRepository) invalidates the regions. A deleted row leaves "some" cached, which only costs
 * the lookup it did before.
 */

/** Invalidates now and, inside a transaction, again once it has committed (a load in between read the old state). */
async function invalidateAround(cache: Cache, key: string): Promise<void> {
  await cache.invalidate(key);
  ambientTransaction.getStore()?.afterCommit.push(() => void cache.invalidate(key).catch(() => undefined));
}

export class CachedWebhookRepository extends TypeOrmWebhookRepository {
  constructor(private readonly source: DataSource, private readonly cache: Cache) {
    super(source);
  }

  override async create(webhook: NewWebhook): Promise<Webhook> {
    try {
      return await super.create(webhook);
    } finally {
      await invalidateAround(this.cache, `wh:${webhook.ownerId}`);
    }
  }

  override async subscribedTo(ownerId: string, type: EventType, applicationId: string | null, at: Date): Promise<Webhook[]> {
    const any = await this.cache.getOrLoad(`wh:${ownerId}`, async () => (await one<{ any: boolean }>(this.source, `SELECT EXISTS (SELECT 1 FROM webhooks WHERE owner_id = $1) AS any`, [ownerId]))?.any === true);
    return any ? super.subscribedTo(ownerId, type, applicationId, at) : [];
  }
}

export class CachedWorkflowRepository extends SqlWorkflowRepository {
  constructor(private readonly source: DataSource, private readonly cache: Cache) {
    super(source);
  }

  override async create(workflow: NewWorkflow): Promise<Workflow> {
    try {
      return await super.create(workflow);
    } finally {
      await invalidateAround(this.cache, `wf:${workflow.ownerId}`);
    }
  }

  override async listByEvent(ownerId: string, applicationId: string | null, type: string): Promise<Workflow[]> {
    const any = await this.cache.getOrLoad(`wf:${ownerId}`, async () => (await one<{ any: boolean }>(this.source, `SELECT EXISTS (SELECT 1 FROM workflows WHERE owner_id = $1) AS any`, [ownerId]))?.any === true);
    return any ? super.listByEvent(ownerId, applicationId, type) : [];
  }
}

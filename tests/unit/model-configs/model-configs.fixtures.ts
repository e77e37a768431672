import { InMemoryApplicationRepository } from '../../../adapters/persistence/in-memory/in-memory-application.repository';
import { InMemoryConfigVersionRepository } from '../../../adapters/persistence/model-configs/in-memory-config-version.repository';
import { InMemoryMessageRatingRepository } from '../../../adapters/persistence/model-configs/in-memory-message-rating.repository';
import { InMemoryModelConfigRepository } from '../../../adapters/persistence/model-configs/in-memory-model-config.repository';
import { InMemoryPromptTemplateRepository } from '../../../adapters/persistence/prompts/in-memory-prompt-template.repository';
import type { Actor } from '../../../core/shared/actor';
import { randomUUID } from 'node:crypto';

/** In-memory adapters of the model-config and prompt areas, sharing one application store. */
export function aWorld() {
  const applications = new InMemoryApplicationRepository();
  const owners = (id: string) => applications.apps.get(id)?.ownerId;
  const configs = new InMemoryModelConfigRepository(owners);
  const versions = new InMemoryConfigVersionRepository(configs);
  const ratings = new InMemoryMessageRatingRepository();
  const templates = new InMemoryPromptTemplateRepository(owners);
  return { applications, configs, versions, ratings, templates };
}

export const anActor = (): Actor => ({ userId: randomUUID(), role: 'developer' });

export async function anApplication(world: ReturnType<typeof aWorld>, actor: Actor) {
  return world.applications.create({ ownerId: actor.userId, name: 'App', description: '', slug: `app-${randomUUID().slice(0, 8)}`, allowedOrigins: [] });
}

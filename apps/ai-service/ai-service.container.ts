import { composeApp, type ComposedApp } from '../shared/compose';
import type { Infrastructure } from '../shared/infrastructure';
import { healthModule } from '../shared/modules/health.module';
import { infrastructureModule } from '../shared/modules/infrastructure.module';

/** The internal AI service ({ai_service_url}). */
export function createAiService(infra: Infrastructure): Promise<ComposedApp> {
  return composeApp('ai-service', infra, [infrastructureModule(infra), healthModule('ai-service', 'ai-service')]);
}

import type { AppModule } from '../shared/app-module';
import { composeApp, type ComposedApp } from '../shared/compose';
import type { Infrastructure } from '../shared/infrastructure';
import { chatEngineModule } from '../shared/modules/chat-engine.module';
import { healthModule } from '../shared/modules/health.module';
import { infrastructureModule } from '../shared/modules/infrastructure.module';
import { aiModule } from './modules/ai.module';
import { aiTracesModule } from './modules/traces.module';

export function aiServiceModules(infra: Infrastructure): AppModule[] {
  return [infrastructureModule(infra), chatEngineModule('in-process'), aiTracesModule, aiModule, healthModule('ai-service', 'ai-service')];
}

/** The internal AI service ({ai_service_url}). */
export function createAiService(infra: Infrastructure): Promise<ComposedApp> {
  return composeApp('ai-service', infra, aiServiceModules(infra));
}

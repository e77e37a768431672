import '../shared/runtime-check';
import { createPlatform } from '../platform/platform';
import { runProcess } from '../shared/serve';

void runProcess(async (config, infra) => [...(await createPlatform({ config, infrastructure: infra, services: ['ai-service'], serve: true })).listening]);

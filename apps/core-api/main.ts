import '../shared/runtime-check';
import { createPlatform } from '../platform/platform';
import { runProcess } from '../shared/serve';

void runProcess(async (config, infra) => [...(await createPlatform({ config, infrastructure: infra, services: ['core-api'], serve: true, console: true })).listening]);

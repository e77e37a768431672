import '../shared/runtime-check';
import { listen, runProcess } from '../shared/serve';
import { createAiService } from './ai-service.container';

void runProcess(async (config, infra) => [await listen(await createAiService(infra), config.host, config.aiServicePort)]);

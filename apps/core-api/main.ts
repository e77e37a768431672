import '../shared/runtime-check';
import { listen, runProcess } from '../shared/serve';
import { createCoreApi } from './core-api.container';

void runProcess(async (config, infra) => [await listen(await createCoreApi(infra), config.host, config.port)]);

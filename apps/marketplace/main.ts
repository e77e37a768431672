import '../shared/runtime-check';
import { listen, runProcess } from '../shared/serve';
import { createMarketplace } from './marketplace.container';

void runProcess(async (config, infra) => [await listen(await createMarketplace(infra), config.host, config.marketplacePort)]);

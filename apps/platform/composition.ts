/**
 * What `createPlatform` composes with: the services' modules, the infrastructure (database, Redis), the servers
 * and the logger, and through them every heavy adapter (TypeORM, PGlite, the providers' SDKs, Stripe, BullMQ,
 * isolated-vm, SAML, the document parsers). `platform.ts` requires this module when `createPlatform` runs, never
 * at import, so a program importing the library for `createInMemoryPlatform` loads none of it (docs/library.md).
 */
// TypeORM and Inversify read decorator metadata: loaded here, with them, not by the library's import.
import 'reflect-metadata';

export { aiServiceModules } from '../ai-service/ai-service.container';
export { coreApiModules } from '../core-api/core-api.container';
export { marketplaceModules } from '../marketplace/marketplace.container';
export { composeApp } from '../shared/compose';
export { createInfrastructure } from '../shared/infrastructure';
export { listen, shutdown } from '../shared/serve';
export { createLogger } from '../../adapters/logging/logger';
export { useCasesOf } from './use-cases-of';

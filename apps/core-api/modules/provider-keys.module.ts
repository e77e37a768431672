import type { Container } from 'inversify';
import { providerKeysRouter } from '../../../adapters/http/provider-keys/provider-keys.router';
import { TypeOrmProviderKeyRepository } from '../../../adapters/persistence/provider-keys/type-orm-provider-key.repository';
import { DeleteProviderKeyUseCase } from '../../../core/provider-keys/use-cases/delete-provider-key.use-case';
import { ListProviderKeysUseCase } from '../../../core/provider-keys/use-cases/list-provider-keys.use-case';
import { SaveProviderKeyUseCase } from '../../../core/provider-keys/use-cases/save-provider-key.use-case';
import { ValidateProviderKeyUseCase } from '../../../core/provider-keys/use-cases/validate-provider-key.use-case';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { CHAT_TOKENS } from '../../shared/modules/chat-engine.tokens';
import { TOKENS, resolve } from '../../shared/tokens';
import { CachedProviderKeyRepository } from '../../../adapters/cache/cached-repositories';
import { PROVIDER_KEY_TOKENS } from './provider-keys.tokens';

/** Users' own provider keys (SPEC 2.5, 4.6), sealed with the SecretBox; validated through the provider registry. */
export const providerKeysModule: AppModule = {
  name: 'provider-keys',
  bind(c: Container) {
    provide(c, PROVIDER_KEY_TOKENS.ProviderKeyRepository, (get) => new CachedProviderKeyRepository(new TypeOrmProviderKeyRepository(get(TOKENS.DataSource)), get(TOKENS.Cache)));
    const deps = (get: Getter) => ({
      keys: get(PROVIDER_KEY_TOKENS.ProviderKeyRepository),
      secretBox: get(TOKENS.SecretBox),
      clock: get(TOKENS.Clock),
    });
    provide(c, ListProviderKeysUseCase, (get) => new ListProviderKeysUseCase(deps(get)));
    provide(c, SaveProviderKeyUseCase, (get) => new SaveProviderKeyUseCase(deps(get)));
    provide(c, DeleteProviderKeyUseCase, (get) => new DeleteProviderKeyUseCase(deps(get)));
    provide(c, ValidateProviderKeyUseCase, (get) => new ValidateProviderKeyUseCase({ ...deps(get), providers: get(CHAT_TOKENS.LlmProviderRegistry) }));
  },
  routers: (c) => [
    providerKeysRouter({
      auth: resolve(c, TOKENS.AuthMiddleware),
      list: resolve(c, ListProviderKeysUseCase),
      save: resolve(c, SaveProviderKeyUseCase),
      remove: resolve(c, DeleteProviderKeyUseCase),
      validate: resolve(c, ValidateProviderKeyUseCase),
    }),
  ],
};

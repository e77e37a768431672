import type { ChatEngine, ProviderInfo } from '../../ai/ports/chat-engine.port';
import type { Actor } from '../../shared/actor';

/**
 * The providers and their catalogued models, with whether the platform holds a key of its own for each
 * (what a chat may pick, as the console's playground offers it). Any signed-in user may read it.
 */
export class ListProvidersUseCase {
  constructor(private readonly deps: { engine: ChatEngine }) {}

  async execute(_actor: Actor): Promise<ProviderInfo[]> {
    return this.deps.engine.providers();
  }
}

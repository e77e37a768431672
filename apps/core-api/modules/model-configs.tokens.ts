import type { ModelConfigRepository } from '../../../core/model-configs/ports/model-config-repository.port';
import type { ConfigVersionRepository } from '../../../core/model-configs/ports/config-version-repository.port';
import type { MessageRatingRepository } from '../../../core/model-configs/ports/message-rating-repository.port';
import { token } from '../../shared/tokens';

export const MODEL_CONFIG_TOKENS = {
  ModelConfigRepository: token<ModelConfigRepository>('ModelConfigRepository'),
  ConfigVersionRepository: token<ConfigVersionRepository>('ConfigVersionRepository'),
  MessageRatingRepository: token<MessageRatingRepository>('MessageRatingRepository'),
} as const;

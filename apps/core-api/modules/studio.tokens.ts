import type { StudioRepository } from '../../../core/studio/ports/studio-repository.port';
import { token } from '../../shared/tokens';

export const STUDIO_TOKENS = { StudioRepository: token<StudioRepository>('StudioRepository') } as const;

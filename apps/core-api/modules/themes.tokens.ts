import type { ThemeRepository } from '../../../core/themes/ports/theme-repository.port';
import type { ThemeLayer } from '../../../core/themes/use-cases/application-themes';
import { token } from '../../shared/tokens';

export const THEME_TOKENS = {
  ThemeRepository: token<ThemeRepository>('ThemeRepository'),
  /** Bound by the branding area when present: branding applied over every application's theme. */
  ThemeLayer: token<ThemeLayer>('ThemeLayer'),
} as const;

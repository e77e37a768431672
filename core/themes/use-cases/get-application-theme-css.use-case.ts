import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { toCss } from '../domain/theme-rules';
import type { ApplicationThemes } from './application-themes';

/**
 * `GET /api/applications/:id/theme.css`: the application's resolved theme as CSS custom properties on
 * `:root` and `:host` (so it applies to a page and inside a shadow root). Public, like the widget.
 */
export class GetApplicationThemeCssUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository; themes: ApplicationThemes }) {}

  async execute(id: string): Promise<string> {
    const app = isUuid(id) ? await this.deps.applications.findById(id) : null;
    if (!app) throw new NotFoundError('Application');
    const { variables } = await this.deps.themes.resolve(app);
    return toCss(variables, ':root, :host');
  }
}

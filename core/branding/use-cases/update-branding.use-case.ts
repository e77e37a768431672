import * as yup from 'yup';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { Actor } from '../../shared/actor';
import { PaymentRequiredError, ValidationError } from '../../shared/errors';
import { bool, str, validate } from '../../shared/validation';
import { isColor, isLength } from '../../themes/domain/theme-rules';
import { BRAND_COLOR_NAMES, CUSTOM_CSS_MAX_BYTES, WIDGET_POSITIONS, defaultBranding, toBrandingView, type BrandingView } from '../domain/branding';
import type { BrandingRepository } from '../ports/branding-repository.port';
import type { PlanFeatures } from '../ports/plan-features.port';
import type { StylesheetSanitizer } from '../ports/stylesheet-sanitizer.port';

const FONT = /^[\w\s,'"-]{1,200}$/;
const SINGLE_LINE = /^[^\r\n]*$/;
const color = (name: string) => str().test('color', `colors.${name} must be a colour as #hex, rgb() or hsl()`, (v) => v === undefined || v === '' || isColor(v));
const httpsUrl = (v: string | undefined) => {
  if (v === undefined || v === '') return true;
  try {
    return new URL(v).protocol === 'https:' && v.length <= 2000;
  } catch {
    return false;
  }
};
const section = <T extends yup.ObjectShape>(shape: T) => yup.object(shape).default(undefined).strict(false);

const schema = yup.object({
  colors: section(Object.fromEntries(BRAND_COLOR_NAMES.map((n) => [n, color(n)]))),
  typography: section({
    bodyFont: str().matches(FONT, { message: 'typography.bodyFont must be a font family list', excludeEmptyString: true }),
    headingFont: str().matches(FONT, { message: 'typography.headingFont must be a font family list', excludeEmptyString: true }),
  }),
  widget: section({
    position: str().oneOf([...WIDGET_POSITIONS, ''], `widget.position must be one of ${WIDGET_POSITIONS.join(', ')}`),
    borderRadius: str().test('length', 'widget.borderRadius must be a CSS length such as 12px', (v) => v === undefined || v === '' || isLength(v)),
    welcomeMessage: str().max(500, 'widget.welcomeMessage must be at most 500 characters'),
    placeholder: str().max(100, 'widget.placeholder must be at most 100 characters').matches(SINGLE_LINE, 'widget.placeholder must be one line'),
  }),
  email: section({
    fromName: str().max(100, 'email.fromName must be at most 100 characters').matches(/^[^\r\n<>"]*$/, 'email.fromName may not hold line breaks, quotes or angle brackets'),
    replyTo: str().email('email.replyTo must be an e-mail address').max(254, 'email.replyTo is too long'),
    headerLogoUrl: str().test('url', 'email.headerLogoUrl must be an https URL', httpsUrl),
    footerText: str().max(1000, 'email.footerText must be at most 1000 characters'),
  }),
  customCss: yup.string().strict(),
  showAttribution: bool(),
});

/** Keeps given non-empty strings over the current ones; an empty string clears a field. */
function mergeSection<T extends Record<string, string | undefined>>(current: T, patch: Record<string, unknown> | undefined): T {
  const out: Record<string, string> = { ...(current as Record<string, string>) };
  for (const [k, v] of Object.entries(patch ?? {})) {
    if (v === undefined) continue;
    if (v === '') delete out[k];
    else out[k] = v as string;
  }
  return out as T;
}

/**
 * `PUT /api/branding/:appId`: changes the sections given and keeps the others. Custom CSS is at most
 * 5 KB and must pass the sanitizer (400 naming the rule); hiding the attribution needs a paid plan (402).
 */
export class UpdateBrandingUseCase {
  constructor(
    private readonly deps: { applications: ApplicationRepository; branding: BrandingRepository; sanitizer: StylesheetSanitizer; plans: PlanFeatures },
  ) {}

  async execute(appId: string, input: unknown, actor: Actor): Promise<BrandingView> {
    const app = await findOwnedApplication(this.deps.applications, appId, actor, 'manage');
    const body = await validate(schema, input);
    const current = (await this.deps.branding.find(app.id)) ?? defaultBranding();
    let { customCss, compiledCss } = current;
    if (body.customCss !== undefined) {
      customCss = body.customCss;
      compiledCss = this.compile(customCss);
    }
    if (body.showAttribution === false && current.showAttribution !== false && !(await this.deps.plans.mayHideAttribution(app.ownerId))) {
      throw new PaymentRequiredError(await this.deps.plans.attributionRefusal(app.ownerId));
    }
    const saved = await this.deps.branding.save(app.id, {
      colors: mergeSection(current.colors, body.colors),
      typography: mergeSection(current.typography, body.typography),
      widget: mergeSection(current.widget, body.widget),
      email: mergeSection(current.email, body.email),
      customCss,
      compiledCss,
      showAttribution: body.showAttribution ?? current.showAttribution,
    });
    return toBrandingView(app.id, saved);
  }

  private compile(css: string): string {
    if (Buffer.byteLength(css, 'utf8') > CUSTOM_CSS_MAX_BYTES) {
      throw ValidationError.field('customCss', `customCss must be at most 5 KB (${CUSTOM_CSS_MAX_BYTES} bytes)`);
    }
    if (css.trim() === '') return '';
    const result = this.deps.sanitizer.sanitize(css);
    if (!result.ok) throw ValidationError.field('customCss', `customCss: ${result.reason} in rule \`${result.rule}\``);
    return result.css;
  }
}

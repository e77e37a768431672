import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import { ValidationError, type ErrorDetail } from '../../shared/errors';
import { bool, validate } from '../../shared/validation';
import { customHeaderProblem, toCustomDomainView, type CustomDomainView } from '../domain/custom-domain';
import type { CustomDomainRepository } from '../ports/custom-domain-repository.port';
import { findOwnedDomain, type DomainPolicy } from './domain-policy';

const MAX_HEADERS = 20;
const schema = yup.object({
  redirectWww: bool(),
  forceHttps: bool(),
  customHeaders: yup.mixed<Record<string, unknown>>().test('object', 'customHeaders must be an object of header names to values', (v) => v === undefined || (v !== null && typeof v === 'object' && !Array.isArray(v))),
});

/** `PUT /api/custom-domains/:id`: the settings `redirectWww`, `forceHttps` and `customHeaders` (replaced whole). */
export class UpdateCustomDomainUseCase {
  constructor(private readonly deps: { domains: CustomDomainRepository; applications?: ApplicationRepository; policy: DomainPolicy }) {}

  async execute(id: string, input: unknown, actor: Actor): Promise<CustomDomainView> {
    const found = await findOwnedDomain(this.deps.domains, id, actor, 'manage', this.deps.applications ?? null);
    const body = await validate(schema, input);
    let customHeaders = found.settings.customHeaders;
    if (body.customHeaders !== undefined) {
      const entries = Object.entries(body.customHeaders);
      const details: ErrorDetail[] = [];
      if (entries.length > MAX_HEADERS) details.push({ path: 'customHeaders', message: `customHeaders may hold at most ${MAX_HEADERS} headers` });
      for (const [name, value] of entries) {
        const problem = customHeaderProblem(name, value);
        if (problem) details.push({ path: `customHeaders.${name}`, message: `customHeaders.${name} ${problem}` });
      }
      if (details.length) throw new ValidationError(details.map((d) => d.message).join('; '), details);
      customHeaders = Object.fromEntries(entries) as Record<string, string>;
    }
    const settings = {
      redirectWww: body.redirectWww ?? found.settings.redirectWww,
      forceHttps: body.forceHttps ?? found.settings.forceHttps,
      customHeaders,
    };
    return toCustomDomainView(await this.deps.domains.update(found.id, { settings }), this.deps.policy.target);
  }
}

import * as yup from 'yup';
import { PLAN_TIERS, type Plan, type PlanTier } from './plans';

/**
 * A self-hoster's plans (PLANS_FILE): a JSON object keyed by tier. A plan given replaces the default
 * of its tier whole (every field required, so nothing is inherited by surprise); tiers left out keep
 * their defaults. Limits are whole numbers or null for unlimited, e.g. to lift the Free plan's limits:
 *
 *   { "free": { "name": "Free", "priceUsdPerMonth": 0, "platformKeys": false, "overageUsdPer1k": null,
 *               "limits": { "includedTokens": 0, "applications": null, "messagesPerMonth": null, "apiKeys": null } } }
 */

/** Why a plans document was refused: the field (a dotted path, e.g. `free.limits.apiKeys`) and the rule. */
export class PlanSettingsError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const limit = yup
  .number()
  .strict()
  .nullable()
  .defined('${path} is required (a whole number, or null for unlimited)')
  .typeError('${path} must be a whole number or null for unlimited')
  .integer('${path} must be a whole number or null for unlimited')
  .min(0, '${path} must be 0 or more');

const planSchema = yup
  .object({
    name: yup.string().strict().typeError('${path} must be a string').required('${path} is required').max(50, '${path} must be at most 50 characters'),
    priceUsdPerMonth: yup.number().strict().typeError('${path} must be a number').required('${path} is required').min(0, '${path} must be 0 or more'),
    platformKeys: yup.boolean().strict().typeError('${path} must be true or false').required('${path} is required'),
    overageUsdPer1k: yup
      .number()
      .strict()
      .nullable()
      .defined('${path} is required (USD per 1,000 tokens, or null for no overage billing)')
      .typeError('${path} must be a number or null')
      .min(0, '${path} must be 0 or more'),
    limits: yup
      .object({ includedTokens: limit, applications: limit, messagesPerMonth: limit, apiKeys: limit })
      .strict()
      .noUnknown('${path} has an unknown field: ${unknown}')
      .default(undefined)
      .typeError('${path} must be an object')
      .required('${path} is required'),
  })
  .strict()
  .noUnknown('${path} has an unknown field: ${unknown}')
  .default(undefined)
  .typeError('${path} must be an object');

const schema = yup
  .object(Object.fromEntries(PLAN_TIERS.map((tier) => [tier, planSchema])) as Record<PlanTier, typeof planSchema>)
  .strict()
  .noUnknown(`unknown plan \${unknown}; the plans are ${PLAN_TIERS.join(', ')}`)
  .typeError('the plans must be a JSON object keyed by plan (free, starter, pro, enterprise)');

/**
 * The plans of a settings document over the defaults. Throws PlanSettingsError naming the first field
 * that breaks a rule (unknown plans and fields included).
 */
export function applyPlanSettings(defaults: Readonly<Record<PlanTier, Plan>>, settings: unknown): Record<PlanTier, Plan> {
  if (settings === null || typeof settings !== 'object' || Array.isArray(settings)) {
    throw new PlanSettingsError('', 'the plans must be a JSON object keyed by plan (free, starter, pro, enterprise)');
  }
  let valid: yup.InferType<typeof schema>;
  try {
    valid = schema.validateSync(settings, { abortEarly: true, strict: true });
  } catch (error) {
    if (error instanceof yup.ValidationError) throw new PlanSettingsError(error.path ?? '', error.message);
    throw error;
  }
  const plans = { ...defaults };
  for (const tier of PLAN_TIERS) {
    const given = valid[tier];
    if (!given) continue;
    plans[tier] = {
      tier,
      name: given.name,
      priceUsdPerMonth: given.priceUsdPerMonth,
      platformKeys: given.platformKeys,
      overageUsdPer1k: given.overageUsdPer1k,
      limits: {
        includedTokens: given.limits.includedTokens,
        applications: given.limits.applications,
        messagesPerMonth: given.limits.messagesPerMonth,
        apiKeys: given.limits.apiKeys,
      },
    };
  }
  return plans;
}

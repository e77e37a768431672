/**
 * The one rule for which configuration answers a chat turn, and where each value comes from
 * (docs/studio.md, "Which value wins"). Provider, model and settings: a studio debug turn's draft,
 * else the request's own choice (the playground), else the conversation's A/B version, else the
 * application's default model config, else the provider's defaults. The system prompt: the request's,
 * else the chosen draft/version/config's own, else the application's default prompt template; a prompt
 * template therefore never applies while the model config (or version) has a system prompt of its own.
 */
export type ValueOrigin = 'studio_draft' | 'request' | 'ab_version' | 'model_config' | 'prompt_template' | 'provider_default' | 'none';

/** The system prompt of a turn and where it came from, by the rule above (the request's is handled by the caller). */
export function effectiveSystemPrompt(
  chosen: { origin: 'studio_draft' | 'ab_version' | 'model_config'; systemPrompt?: string } | null,
  template: { content: string } | null,
): { systemPrompt?: string; origin: ValueOrigin } {
  if (chosen?.systemPrompt) return { systemPrompt: chosen.systemPrompt, origin: chosen.origin };
  // A studio draft with empty instructions still falls back to the template, as the published config would.
  if (template?.content) return { systemPrompt: template.content, origin: 'prompt_template' };
  return { origin: 'none' };
}

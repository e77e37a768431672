import type { ProviderId } from '../../ai/domain/provider-id';
import { resolveModelSettings } from '../../ai/domain/model-settings';
import { effectiveSystemPrompt, type ValueOrigin } from '../../model-configs/domain/precedence';
import { toPercent } from '../../model-configs/domain/traffic';
import { FULL_TRAFFIC } from '../../model-configs/domain/traffic';
import { runSettings, type StudioConfig } from '../domain/studio-config';
import type { StudioDeps } from './studio-deps';

/** One arm of an A/B test under way on the default config. */
export interface LiveVersionView {
  id: string;
  label: string;
  trafficPercent: number;
  provider: ProviderId;
  modelId: string;
  systemPromptFrom: ValueOrigin;
}

/** What end users get now and where each value comes from (docs/studio.md, "Where each value comes from"). */
export interface LiveConfigurationView {
  provider: ProviderId;
  modelId: string;
  modelFrom: ValueOrigin;
  modelConfig: { id: string; name: string } | null;
  systemPrompt: string | null;
  systemPromptFrom: ValueOrigin;
  /** The default prompt template when it exists but does not apply, because the config's own prompt wins. */
  unusedTemplate: { id: string; name: string } | null;
  /** The template applying, when it does. */
  template: { id: string; name: string } | null;
  abTest: { defaultConfigPercent: number; versions: LiveVersionView[] } | null;
  /** The latest published version when the live config still is exactly it; null when none or changed since. */
  publishedVersion: number | null;
  /** A version was published and the model config was changed elsewhere since (the model-config screens or API). */
  changedOutsideStudio: boolean;
}

export async function liveConfiguration(deps: StudioDeps, applicationId: string): Promise<LiveConfigurationView> {
  const config = await deps.configs.findDefault(applicationId);
  const template = await deps.templates.findDefault(applicationId);
  const prompt = effectiveSystemPrompt(config ? { origin: 'model_config', systemPrompt: config.settings.systemPrompt } : null, template);
  const fallback = config ? null : resolveModelSettings('provider_a', undefined, {});
  const versions = config ? (await deps.versions.listByConfig(config.id)).filter((v) => v.isActive && v.trafficShare > 0) : [];
  const latest = await deps.studio.latestVersion(applicationId);
  const matches = !!(latest && config && sameLive(latest.config, config));
  const ref = (t: { id: string; name: string } | null) => (t ? { id: t.id, name: t.name } : null);
  return {
    provider: config?.provider ?? fallback!.provider,
    modelId: config?.modelId ?? fallback!.model,
    modelFrom: config ? 'model_config' : 'provider_default',
    modelConfig: ref(config),
    systemPrompt: prompt.systemPrompt ?? null,
    systemPromptFrom: prompt.origin,
    template: prompt.origin === 'prompt_template' ? ref(template) : null,
    unusedTemplate: prompt.origin !== 'prompt_template' && template ? ref(template) : null,
    abTest: versions.length
      ? {
          defaultConfigPercent: toPercent(FULL_TRAFFIC - versions.reduce((sum, v) => sum + v.trafficShare, 0)),
          versions: versions.map((v) => ({
            id: v.id,
            label: v.label,
            trafficPercent: toPercent(v.trafficShare),
            provider: v.provider,
            modelId: v.modelId,
            systemPromptFrom: effectiveSystemPrompt({ origin: 'ab_version', systemPrompt: v.settings.systemPrompt }, template).origin,
          })),
        }
      : null,
    publishedVersion: matches ? latest!.number : null,
    changedOutsideStudio: !!latest && !matches,
  };
}

/** Whether the live model config is what publishing `published` wrote. */
function sameLive(published: StudioConfig, live: { provider: string; modelId: string; settings: object }): boolean {
  if (published.provider !== live.provider || published.modelId !== live.modelId) return false;
  let expected: Record<string, unknown>;
  try {
    expected = { ...runSettings(published) };
  } catch {
    return false;
  }
  const keys = new Set([...Object.keys(expected), ...Object.keys(live.settings)]);
  const actual = live.settings as Record<string, unknown>;
  for (const key of keys) if (expected[key] !== actual[key]) return false;
  return true;
}

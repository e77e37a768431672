import type { ModelSettings } from '../../ai/ports/llm-provider.port';
import type { ModelConfig } from './model-config';

/**
 * What a new version's settings start from before its own are laid over them: a variant usually
 * changes one thing (a temperature, a prompt). Settings only carry over where they still fit: all of
 * them for the same model, all but maxTokens (bounded per model) for another model of the provider,
 * and only the system prompt for another provider, whose ranges differ.
 */
export function inheritedSettings(parent: ModelConfig, provider: string, modelId: string): Partial<ModelSettings> {
  if (provider === parent.provider && modelId === parent.modelId) return { ...parent.settings };
  if (provider === parent.provider) {
    const { maxTokens: _bounded, ...rest } = parent.settings;
    return rest;
  }
  return parent.settings.systemPrompt ? { systemPrompt: parent.settings.systemPrompt } : {};
}

import type { CatalogueModel } from './builtin-models.js';
import { unknownModelDefaults } from './builtin-models.js';
import type { ProviderSettings } from './catalogue.js';
import type { WireAdapter } from './wire-adapters.js';

/** One model a plugged provider offers. */
export interface PluggedModel {
  id: string;
  contextWindow?: number;
  maxOutput?: number;
}

/**
 * A provider that is not a wire format claw speaks but code that streams
 * (a plugin's): claw still resolves its refs, rotates nothing (it has no
 * keys), retries, fails over and cools it down; the provider only streams
 * and classifies its errors.
 */
export interface PluggedProvider {
  name: string;
  /** Who brought it (`plugin acme-weather`), shown where the provider is listed. */
  source: string;
  models: readonly PluggedModel[];
  stream: WireAdapter;
}

/** The settings a plugged provider resolves with: OpenAI's limits and token estimates, no key, its own models. */
export function pluggedSettings(provider: PluggedProvider): ProviderSettings {
  const models: Record<string, CatalogueModel> = {};
  for (const model of provider.models)
    models[model.id] = {
      ...unknownModelDefaults,
      ...(model.contextWindow ? { contextWindow: model.contextWindow } : {}),
      ...(model.maxOutput ? { maxOutput: model.maxOutput } : {}),
    };
  return { name: provider.name, api: 'openai', baseUrl: provider.source, apiKeyEnv: undefined, headers: {}, models, builtin: false, configured: true };
}

import type { ClawConfig } from '../config/index.js';
import { builtinProviders, unknownModelDefaults, type CatalogueModel } from './builtin-models.js';
import { ProviderError } from './errors.js';
import { ollamaOrigin } from './ollama.js';
import type { ResolvedModel, WireApi } from './types.js';

/** A provider as configured: built-in defaults overlaid with `models.providers.<name>`. */
export interface ProviderSettings {
  name: string;
  api: WireApi;
  baseUrl: string;
  apiKeyEnv: string | undefined;
  headers: Record<string, string>;
  models: Record<string, CatalogueModel>;
  builtin: boolean;
  /** Listed in claw.json (so the user meant to use it). */
  configured: boolean;
}

type ConfiguredModel = ClawConfig['models']['providers'][string]['models'][string];

export function splitModelRef(ref: string): { provider: string; id: string } {
  const slash = ref.indexOf('/');
  if (slash <= 0 || slash === ref.length - 1) {
    throw new ProviderError('not_configured', `"${ref}" is not a model ref; write it as provider/model, e.g. anthropic/claude-sonnet-4-5.`);
  }
  return { provider: ref.slice(0, slash), id: ref.slice(slash + 1) };
}

export function providerSettings(config: ClawConfig, env: NodeJS.ProcessEnv): Map<string, ProviderSettings> {
  const out = new Map<string, ProviderSettings>();
  for (const [name, builtin] of Object.entries(builtinProviders)) {
    out.set(name, {
      name,
      api: builtin.api,
      baseUrl: name === 'ollama' ? `${ollamaOrigin(env)}/v1` : builtin.baseUrl,
      apiKeyEnv: builtin.apiKeyEnv,
      headers: {},
      models: { ...builtin.models },
      builtin: true,
      configured: false,
    });
  }
  for (const [name, entry] of Object.entries(config.models.providers)) {
    const base = out.get(name);
    const api = entry.api ?? base?.api;
    const baseUrl = entry.baseUrl ?? base?.baseUrl;
    if (!api || !baseUrl) {
      throw new ProviderError(
        'not_configured',
        `models.providers.${name} in claw.json needs ${!api ? '"api": "openai" or "anthropic"' : ''}${!api && !baseUrl ? ' and ' : ''}${!baseUrl ? 'a "baseUrl"' : ''}.`,
      );
    }
    const models = { ...(base?.models ?? {}) };
    for (const [id, info] of Object.entries(entry.models)) models[id] = fromConfig(info, api);
    out.set(name, {
      name,
      api,
      baseUrl,
      apiKeyEnv: entry.apiKeyEnv ?? base?.apiKeyEnv,
      headers: { ...(base?.headers ?? {}), ...entry.headers },
      models,
      builtin: base?.builtin ?? false,
      configured: true,
    });
  }
  return out;
}

function fromConfig(info: ConfiguredModel, api: WireApi): CatalogueModel {
  const cost = {
    input: info.cost.input,
    output: info.cost.output,
    ...(info.cost.cacheRead === undefined ? {} : { cacheRead: info.cost.cacheRead }),
    ...(info.cost.cacheWrite === undefined ? {} : { cacheWrite: info.cost.cacheWrite }),
  };
  return { contextWindow: info.contextWindow, maxOutput: info.maxOutput, cost, reasoning: info.reasoning ?? api === 'anthropic' };
}

export function resolveModelRef(settings: Map<string, ProviderSettings>, ref: string): ResolvedModel {
  const { provider, id } = splitModelRef(ref);
  const entry = settings.get(provider);
  if (!entry) {
    const known = [...settings.keys()].join(', ');
    throw new ProviderError(
      'not_configured',
      `Unknown provider "${provider}" in "${ref}". Known providers: ${known}. Add it under models.providers.${provider} in claw.json (api, baseUrl, apiKeyEnv).`,
    );
  }
  const info = entry.models[id];
  const fallback: CatalogueModel = { ...unknownModelDefaults, reasoning: entry.api === 'anthropic' };
  const chosen = info ?? fallback;
  return {
    ref: `${provider}/${id}`,
    provider,
    id,
    api: entry.api,
    baseUrl: entry.baseUrl,
    headers: entry.headers,
    contextWindow: chosen.contextWindow,
    maxOutput: chosen.maxOutput,
    cost: chosen.cost,
    reasoning: chosen.reasoning,
    known: info !== undefined,
  };
}

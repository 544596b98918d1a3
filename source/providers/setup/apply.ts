import { mkdirSync } from 'node:fs';
import { readRawConfig, validateConfig, writeFileAtomicSync, writeRawConfig, type StatePaths } from '../../config/index.js';
import type { SetupCandidate } from '../../protocol/index.js';
import { builtinProviders } from '../builtin-models.js';
import { credentialsPath } from '../credentials.js';
import { ProviderError } from '../errors.js';
import { findPreset } from './presets.js';

export interface SetupPlan {
  candidate: SetupCandidate;
  /** The model id as the provider names it (no `provider/` prefix). */
  model: string;
  /** A typed or pasted key; stored in credentials/<provider>.json, never in claw.json. */
  apiKey?: string | undefined;
  /** Default: primary when no model is configured yet, else fallback. */
  role?: 'primary' | 'fallback' | undefined;
}

export interface SetupWritten {
  model: string;
  role: 'primary' | 'fallback';
  fallbacks: string[];
  configFile: string;
  credentialsFile?: string;
}

type Plain = Record<string, unknown>;

function plain(value: unknown): Plain {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Plain) } : {};
}

/** `models.providers.<name>` after setup: only what the built-in defaults do not already say. */
function providerEntry(existing: Plain, candidate: SetupCandidate, model: string): Plain | undefined {
  const builtin = builtinProviders[candidate.provider];
  const entry = { ...existing };
  if (!builtin || builtin.api !== candidate.api) entry.api = candidate.api;
  // Ollama's address follows OLLAMA_HOST unless claw.json pins one.
  if (!builtin || (builtin.baseUrl !== candidate.baseUrl && candidate.source !== 'ollama')) entry.baseUrl = candidate.baseUrl;
  // Only a named provider's own variable: claw.json never points another secret of the environment at a server.
  const keyEnv = findPreset(candidate.provider)?.keyEnv;
  if (keyEnv && keyEnv !== builtin?.apiKeyEnv) entry.apiKeyEnv = keyEnv;
  // Catalogue models keep their known window and prices; anything else gets an entry of its own.
  if (!builtin?.models[model]) entry.models = { ...plain(existing.models), [model]: plain(plain(existing.models)[model]) };
  return Object.keys(entry).length > 0 ? entry : undefined;
}

/**
 * Saves what `claw setup` chose: the key to credentials/<provider>.json (0600),
 * the provider and model to claw.json. A new primary model keeps the old one
 * as its first fallback, so running setup again adds rather than replaces.
 * The config is validated before anything is written.
 */
export function applySetupSync(paths: StatePaths, plan: SetupPlan): SetupWritten {
  const { candidate } = plan;
  const model = plan.model.trim().replace(new RegExp(`^${candidate.provider}/`), '');
  if (!model) throw new ProviderError('not_configured', 'No model was chosen; pick one from the list or type its id.');
  const ref = `${candidate.provider}/${model}`;
  const raw = readRawConfig(paths.config);
  const models = plain(raw.models);
  const providers = plain(models.providers);
  const entry = providerEntry(plain(providers[candidate.provider]), candidate, model);
  if (entry) providers[candidate.provider] = entry;
  const agents = plain(raw.agents);
  const defaults = plain(agents.defaults);
  const current = typeof defaults.model === 'string' ? defaults.model : undefined;
  const fallbacks = Array.isArray(defaults.fallbacks) ? defaults.fallbacks.filter((f): f is string => typeof f === 'string') : [];
  const role = plan.role ?? (current && current !== ref ? 'fallback' : 'primary');
  let nextFallbacks: string[];
  if (role === 'primary') {
    defaults.model = ref;
    nextFallbacks = [...(current && current !== ref ? [current] : []), ...fallbacks].filter((f, i, all) => f !== ref && all.indexOf(f) === i);
  } else {
    if (!current) defaults.model = ref;
    nextFallbacks = current && current !== ref && !fallbacks.includes(ref) ? [...fallbacks, ref] : fallbacks;
  }
  if (nextFallbacks.length > 0 || 'fallbacks' in defaults) defaults.fallbacks = nextFallbacks;
  const next: Plain = { ...raw, models: { ...models, providers }, agents: { ...agents, defaults } };
  // Nothing is written unless the whole result is valid.
  validateConfig(next, paths.config);
  let credentialsFile: string | undefined;
  if (plan.apiKey?.trim()) {
    credentialsFile = credentialsPath(paths.credentials, candidate.provider);
    mkdirSync(paths.credentials, { recursive: true, mode: 0o700 });
    writeFileAtomicSync(credentialsFile, `${JSON.stringify({ apiKey: plan.apiKey.trim() }, null, 2)}\n`, 0o600);
  }
  writeRawConfig(paths.config, next);
  return {
    model: ref,
    role: current && current !== ref && role === 'fallback' ? 'fallback' : 'primary',
    fallbacks: nextFallbacks,
    configFile: paths.config,
    ...(credentialsFile ? { credentialsFile } : {}),
  };
}

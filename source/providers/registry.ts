import type { ClawConfig, StatePaths } from '../config/index.js';
import { builtinProviders, defaultModelFor } from './builtin-models.js';
import { providerSettings, resolveModelRef, type ProviderSettings } from './catalogue.js';
import { Cooldowns } from './cooldowns.js';
import { authProfilesFor, credentialsPath, missingKeyMessage } from './credentials.js';
import { ProviderError } from './errors.js';
import { defaultFailoverPolicy, streamWithFailover, type FailoverPolicy } from './failover.js';
import { ollamaOrigin, probeOllamaModels } from './ollama.js';
import { systemClock, type Clock } from '../config/index.js';
import type { AuthProfile, CooldownStatus, ModelListing, ProviderEvent, Providers, ResolvedModel, TurnRequest, WireRequest } from './types.js';
import { wireAdapterFor, type WireAdapter } from './wire-adapters.js';
import { pluggedSettings, type PluggedProvider } from './plugged.js';

export interface ProvidersOptions {
  config: ClawConfig;
  paths: StatePaths;
  /** Where API keys and OLLAMA_HOST are read; default process.env. */
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
  /** In [0, 1): the retry jitter source; default Math.random. */
  random?: () => number;
  policy?: Partial<FailoverPolicy>;
  /** Told the whole list whenever a key or model starts or stops cooling down (the gateway's `cooldowns` event). */
  onCooldowns?: (cooldowns: CooldownStatus[]) => void;
  /** Wire formats beside the built-in ones, by API name (where a plugin provider registers its own). */
  adapters?: Readonly<Record<string, WireAdapter>>;
}

/**
 * The providers subsystem: model catalogue, credentials, cooldowns (kept for
 * the life of this object, so create one per gateway) and failover. Keys are
 * re-read on every call, so a credentials file written after start-up works
 * for the next message without a restart.
 */
export function createProviders(options: ProvidersOptions): Providers {
  const env = options.env ?? process.env;
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const cooldowns = new Cooldowns(clock, options.onCooldowns);
  // Derived from the config until reload(); a bad provider entry rethrows on every use.
  let cached: { settings: Map<string, ProviderSettings> } | { error: unknown } | undefined;
  const settings = (): Map<string, ProviderSettings> => {
    if (!cached) {
      try {
        cached = { settings: providerSettings(options.config, env) };
      } catch (error) {
        cached = { error };
      }
    }
    if ('error' in cached) throw cached.error;
    return cached.settings;
  };
  const credentialsDir = options.paths.credentials;
  const plugged = new Map<string, PluggedProvider>();
  // The configured providers plus the plugged ones, which come and go with their plugins.
  const allSettings = (): Map<string, ProviderSettings> => {
    const base = settings();
    if (plugged.size === 0) return base;
    const out = new Map(base);
    for (const provider of plugged.values()) out.set(provider.name, pluggedSettings(provider));
    return out;
  };

  const profilesOf = (provider: ProviderSettings): AuthProfile[] => {
    if (plugged.has(provider.name)) return [{ id: 'none', apiKey: undefined }];
    const profiles = authProfilesFor(provider, credentialsDir, env);
    if (profiles.length === 0) throw new ProviderError('not_configured', missingKeyMessage(provider, credentialsDir));
    return profiles;
  };
  const isReady = (provider: ProviderSettings): boolean => {
    if (plugged.has(provider.name)) return true;
    try {
      return authProfilesFor(provider, credentialsDir, env).length > 0;
    } catch {
      return false;
    }
  };
  const call = (request: WireRequest): AsyncIterable<ProviderEvent> =>
    (plugged.get(request.model.provider)?.stream ?? wireAdapterFor(request.model.api, options.adapters))(request);

  const configuredChoice = (all: Map<string, ProviderSettings>): string | undefined => {
    for (const provider of all.values()) {
      if (!provider.configured || !isReady(provider)) continue;
      const first = Object.keys(options.config.models.providers[provider.name]?.models ?? {})[0] ?? defaultModelFor[provider.name];
      if (first) return `${provider.name}/${first}`;
    }
    for (const name of ['anthropic', 'openai']) {
      const provider = all.get(name);
      const preferred = defaultModelFor[name];
      if (provider && preferred && isReady(provider)) return `${name}/${preferred}`;
    }
    return undefined;
  };

  return {
    streamTurn(request: TurnRequest): AsyncIterable<ProviderEvent> {
      const all = allSettings();
      return streamWithFailover(request, {
        resolve: (ref) => resolveModelRef(all, ref),
        profiles: (model: ResolvedModel) => {
          const provider = all.get(model.provider);
          if (!provider) throw new ProviderError('not_configured', `Unknown provider "${model.provider}".`);
          return profilesOf(provider);
        },
        call,
        cooldowns,
        clock,
        random,
        // Read per call, so a config reload changes the next turn's failover.
        policy: { ...defaultFailoverPolicy, ...options.config.models.failover, ...options.policy },
      });
    },

    cooldowns: () => cooldowns.list(),
    resetCooldowns: (which) => cooldowns.reset(which),

    resolveModel: (ref) => resolveModelRef(allSettings(), ref),

    async defaultModel() {
      const chosen = configuredChoice(settings());
      if (chosen) return chosen;
      const local = await probeOllamaModels(env);
      return local?.[0] === undefined ? undefined : `ollama/${local[0]}`;
    },

    async listModels() {
      const all = allSettings();
      const listings: ModelListing[] = [];
      for (const provider of all.values()) {
        if (provider.name === 'ollama' && !provider.configured) continue;
        const ready = isReady(provider);
        for (const [id, info] of Object.entries(provider.models)) {
          const source = plugged.has(provider.name) ? 'plugin' : provider.builtin && builtinProviders[provider.name]?.models[id] ? 'builtin' : 'config';
          listings.push({
            ref: `${provider.name}/${id}`,
            provider: provider.name,
            contextWindow: info.contextWindow,
            maxOutput: info.maxOutput,
            cost: info.cost,
            ready,
            source,
          });
        }
      }
      const anythingReady = listings.some((listing) => listing.ready);
      const ollamaConfigured = all.get('ollama')?.configured === true;
      if (!anythingReady || ollamaConfigured) {
        for (const name of (await probeOllamaModels(env)) ?? []) {
          if (listings.some((listing) => listing.ref === `ollama/${name}`)) continue;
          const model = resolveModelRef(all, `ollama/${name}`);
          listings.push({
            ref: model.ref,
            provider: 'ollama',
            contextWindow: model.contextWindow,
            maxOutput: model.maxOutput,
            cost: model.cost,
            ready: true,
            source: 'ollama',
          });
        }
      }
      return listings;
    },

    reload: () => {
      cached = undefined;
    },
    plug(provider) {
      if (settings().has(provider.name) || plugged.has(provider.name))
        throw new ProviderError('not_configured', `A provider named "${provider.name}" already exists; ${provider.source} must name its provider differently.`);
      plugged.set(provider.name, provider);
      return () => {
        if (plugged.get(provider.name) === provider) plugged.delete(provider.name);
      };
    },
    setupHint: () => SETUP_HINT,
    setupGuide: () => setupGuide(credentialsDir, env),
  };
}

/** The one line a chat shows when no provider is usable; the setup is one command away. */
const SETUP_HINT = '/setup adds one (`claw models list`: other ways), then /retry.';

/** What to set when no provider is usable: every way, with the exact names and paths; each command on a line of its own. */
export function setupGuide(credentialsDir: string, env: NodeJS.ProcessEnv = process.env): string {
  return [
    'No model provider is configured. The quickest way (finds local servers and keys, tests the model, needs no restart):',
    '  claw setup',
    'Or by hand, then resend the message (or /retry):',
    `  • Put a key in ${credentialsPath(credentialsDir, 'anthropic')} or ${credentialsPath(credentialsDir, 'openai')} as {"apiKey": "…"} (chmod 600); takes effect without a restart.`,
    '  • Or export ANTHROPIC_API_KEY=… or OPENAI_API_KEY=… in the environment that starts the gateway, then restart it:',
    '      claw gateway restart',
    '  • Or add an OpenAI-compatible server to claw.json:',
    '      claw config set models.providers.local \'{"api":"openai","baseUrl":"http://127.0.0.1:8000/v1","models":{"my-model":{}}}\'',
    '      claw config set agents.defaults.model local/my-model',
    `  • Or run Ollama (checked at ${ollamaOrigin(env)}; set OLLAMA_HOST if it is elsewhere) and pull a model.`,
  ].join('\n');
}

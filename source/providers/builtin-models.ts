import type { ModelCost, WireApi } from './types.js';

export interface CatalogueModel {
  contextWindow: number;
  maxOutput: number;
  cost: ModelCost;
  reasoning: boolean;
}

export interface BuiltinProvider {
  api: WireApi;
  baseUrl: string;
  /** Undefined: the server needs no key (local Ollama). */
  apiKeyEnv: string | undefined;
  models: Record<string, CatalogueModel>;
}

const model = (contextWindow: number, maxOutput: number, cost: ModelCost, reasoning = false): CatalogueModel => ({ contextWindow, maxOutput, cost, reasoning });

/** Context windows, output caps and list prices (USD per million tokens) of common models. */
export const builtinProviders: Record<string, BuiltinProvider> = {
  openai: {
    api: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    apiKeyEnv: 'OPENAI_API_KEY',
    models: {
      'gpt-5': model(400_000, 128_000, { input: 1.25, output: 10, cacheRead: 0.125 }, true),
      'gpt-5-mini': model(400_000, 128_000, { input: 0.25, output: 2, cacheRead: 0.025 }, true),
      'gpt-5-nano': model(400_000, 128_000, { input: 0.05, output: 0.4, cacheRead: 0.005 }, true),
      'gpt-4.1': model(1_047_576, 32_768, { input: 2, output: 8, cacheRead: 0.5 }),
      'gpt-4.1-mini': model(1_047_576, 32_768, { input: 0.4, output: 1.6, cacheRead: 0.1 }),
      'gpt-4o': model(128_000, 16_384, { input: 2.5, output: 10, cacheRead: 1.25 }),
      'gpt-4o-mini': model(128_000, 16_384, { input: 0.15, output: 0.6, cacheRead: 0.075 }),
      o3: model(200_000, 100_000, { input: 2, output: 8, cacheRead: 0.5 }, true),
      'o4-mini': model(200_000, 100_000, { input: 1.1, output: 4.4, cacheRead: 0.275 }, true),
    },
  },
  anthropic: {
    api: 'anthropic',
    baseUrl: 'https://api.anthropic.com',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
    models: {
      'claude-opus-4-1': model(200_000, 32_000, { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 }, true),
      'claude-sonnet-4-5': model(200_000, 64_000, { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, true),
      'claude-sonnet-4-0': model(200_000, 64_000, { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, true),
      'claude-haiku-4-5': model(200_000, 64_000, { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 }, true),
      'claude-3-5-haiku-latest': model(200_000, 8192, { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 }),
    },
  },
  ollama: {
    api: 'openai',
    // Replaced by OLLAMA_HOST when set.
    baseUrl: 'http://127.0.0.1:11434/v1',
    apiKeyEnv: undefined,
    models: {},
  },
};

/** Preferred models when only a key is configured. */
export const defaultModelFor: Record<string, string> = {
  anthropic: 'claude-sonnet-4-5',
  openai: 'gpt-4.1',
};

/** Assumed for refs the catalogue does not know (local servers report no metadata). */
export const unknownModelDefaults: CatalogueModel = model(32_768, 8192, { input: 0, output: 0 });

import type { WireApi } from '../types.js';

/** A provider `claw setup` offers by name: where it lives and which key it needs. */
export interface ProviderPreset {
  name: string;
  label: string;
  api: WireApi;
  baseUrl: string;
  /** Undefined: a local server that needs no key. */
  keyEnv: string | undefined;
  /** Also a built-in provider, so claw.json needs no api/baseUrl for it. */
  builtin: boolean;
}

const preset = (name: string, label: string, api: WireApi, baseUrl: string, keyEnv: string | undefined, builtin = false): ProviderPreset => ({
  name,
  label,
  api,
  baseUrl,
  keyEnv,
  builtin,
});

/** In the order the setup menu lists them after what was detected. */
export const providerPresets: readonly ProviderPreset[] = [
  preset('openai', 'OpenAI', 'openai', 'https://api.openai.com/v1', 'OPENAI_API_KEY', true),
  preset('anthropic', 'Anthropic', 'anthropic', 'https://api.anthropic.com', 'ANTHROPIC_API_KEY', true),
  preset('openrouter', 'OpenRouter', 'openai', 'https://openrouter.ai/api/v1', 'OPENROUTER_API_KEY'),
  preset('ollama', 'Ollama (local)', 'openai', 'http://127.0.0.1:11434/v1', undefined, true),
  preset('gemini', 'Google Gemini', 'openai', 'https://generativelanguage.googleapis.com/v1beta/openai', 'GEMINI_API_KEY'),
  preset('groq', 'Groq', 'openai', 'https://api.groq.com/openai/v1', 'GROQ_API_KEY'),
  preset('mistral', 'Mistral', 'openai', 'https://api.mistral.ai/v1', 'MISTRAL_API_KEY'),
  preset('deepseek', 'DeepSeek', 'openai', 'https://api.deepseek.com/v1', 'DEEPSEEK_API_KEY'),
  preset('xai', 'xAI', 'openai', 'https://api.x.ai/v1', 'XAI_API_KEY'),
  preset('together', 'Together AI', 'openai', 'https://api.together.xyz/v1', 'TOGETHER_API_KEY'),
];

export function findPreset(name: string): ProviderPreset | undefined {
  return providerPresets.find((p) => p.name === name);
}

/** Provider names are config keys and file names: keep them to what both accept. */
export const PROVIDER_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;

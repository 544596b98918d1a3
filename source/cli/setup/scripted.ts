import { customSetupCandidate, type SetupCandidate } from '../../protocol/index.js';
import { findPreset, presetCandidate } from '../../providers/index.js';
import type { ApplyResult, SetupBackend } from './backend.js';

export interface ScriptedOptions {
  provider: string | undefined;
  model: string | undefined;
  keyEnv: string | undefined;
  baseUrl: string | undefined;
  role: 'primary' | 'fallback' | undefined;
  agentName: string | undefined;
  userName: string | undefined;
}

export type ScriptedOutcome = { ok: true; saved: ApplyResult; answer: string } | { ok: false; error: string; code: number };

async function candidateFor(options: ScriptedOptions, backend: SetupBackend, env: NodeJS.ProcessEnv): Promise<SetupCandidate | string> {
  const name = options.provider!;
  const preset = findPreset(name);
  let candidate: SetupCandidate | undefined;
  if (options.baseUrl) {
    try {
      const custom = customSetupCandidate(options.baseUrl);
      candidate = preset
        ? presetCandidate(preset, { baseUrl: custom.baseUrl, source: 'custom', detail: custom.detail })
        : { ...custom, provider: name, label: name };
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  } else {
    const choices = await backend.detect();
    candidate = choices.find((c) => c.provider === name);
    if (!candidate) {
      const names = choices.map((c) => c.provider).join(', ');
      return `unknown provider "${name}". Known: ${names}. For any other OpenAI-compatible server add --base-url URL.`;
    }
  }
  if (options.keyEnv) {
    // The key itself never goes on the command line, where `ps` and shell history would see it.
    if (!env[options.keyEnv]?.trim()) return `${options.keyEnv} is not set in this shell; export it first, or name the variable that holds the key.`;
  } else if (candidate.needsKey && !candidate.keyFound) {
    return `${candidate.provider} needs an API key: add --key-env VAR, where VAR is the environment variable holding it (${candidate.keyEnv ?? 'e.g. MY_API_KEY'}).`;
  }
  return candidate;
}

/**
 * `claw setup --provider … --model … --yes`: the same test request as the
 * interactive setup; on a failure the provider's error is the result and
 * nothing is written.
 */
export async function runScriptedSetup(options: ScriptedOptions, backend: SetupBackend, env: NodeJS.ProcessEnv): Promise<ScriptedOutcome> {
  if (!options.provider || !options.model) return { ok: false, error: '--yes needs --provider NAME and --model ID.', code: 2 };
  const candidate = await candidateFor(options, backend, env);
  if (typeof candidate === 'string') return { ok: false, error: candidate, code: 2 };
  const apiKey = options.keyEnv ? env[options.keyEnv]!.trim() : undefined;
  const tested = await backend.test(candidate, options.model, apiKey);
  if (!tested.ok) return { ok: false, error: `the test request failed, nothing was written: ${tested.error}`, code: 1 };
  const saved = await backend.apply({
    candidate,
    model: options.model,
    ...(apiKey ? { apiKey } : {}),
    ...(options.role ? { role: options.role } : {}),
    ...(options.agentName ? { agentName: options.agentName } : {}),
    ...(options.userName ? { userName: options.userName } : {}),
  });
  return { ok: true, saved, answer: tested.text ?? '' };
}

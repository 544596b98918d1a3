import { readdirSync } from 'node:fs';
import type { SetupCandidate } from '../../protocol/index.js';
import { readCredentialProfiles } from '../credentials.js';
import { ollamaOrigin, probeOllamaModels } from '../ollama.js';
import { findPreset, PROVIDER_NAME, providerPresets, type ProviderPreset } from './presets.js';
import { fetchModelIds } from './model-list.js';

/** llama.cpp's server, vLLM, LM Studio. */
export const DEFAULT_LOCAL_PORTS: readonly number[] = [8080, 8000, 1234];
const PROBE_TIMEOUT_MS = 800;

export interface DetectOptions {
  env: NodeJS.ProcessEnv;
  credentialsDir: string;
  /** Loopback ports probed for OpenAI-compatible servers; default CLAW_SETUP_PORTS or DEFAULT_LOCAL_PORTS. */
  localPorts?: readonly number[];
  timeoutMs?: number;
}

/** `CLAW_SETUP_PORTS=8080,9000`: where local servers are looked for (tests point it at their fakes). */
export function localPortsFrom(env: NodeJS.ProcessEnv): readonly number[] {
  const raw = env.CLAW_SETUP_PORTS?.trim();
  if (!raw) return DEFAULT_LOCAL_PORTS;
  const ports = raw
    .split(',')
    .map((part) => Number(part.trim()))
    .filter((port) => Number.isInteger(port) && port > 0 && port < 65_536);
  return ports.length > 0 ? ports : DEFAULT_LOCAL_PORTS;
}

export function presetCandidate(preset: ProviderPreset, extra: Partial<SetupCandidate> = {}): SetupCandidate {
  return {
    provider: preset.name,
    label: preset.label,
    api: preset.api,
    baseUrl: preset.baseUrl,
    ...(preset.keyEnv ? { keyEnv: preset.keyEnv } : {}),
    needsKey: preset.keyEnv !== undefined,
    source: 'preset',
    detail: preset.keyEnv ? `needs an API key (${preset.keyEnv})` : 'local server',
    ...extra,
  };
}

function hasCredentials(credentialsDir: string, provider: string): boolean {
  try {
    return readCredentialProfiles(credentialsDir, provider).length > 0;
  } catch {
    return false;
  }
}

function credentialFileProviders(credentialsDir: string): string[] {
  try {
    return readdirSync(credentialsDir)
      .filter((name) => name.endsWith('.json'))
      .map((name) => name.slice(0, -'.json'.length))
      .filter((name) => PROVIDER_NAME.test(name) && hasCredentials(credentialsDir, name));
  } catch {
    return [];
  }
}

async function probeOllama(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<SetupCandidate | undefined> {
  const models = await probeOllamaModels(env, timeoutMs);
  if (!models) return undefined;
  const origin = ollamaOrigin(env);
  const where = origin.replace(/^https?:\/\//, '');
  return presetCandidate(findPreset('ollama')!, {
    baseUrl: `${origin}/v1`,
    source: 'ollama',
    detail:
      models.length > 0
        ? `running at ${where}, ${models.length} model${models.length > 1 ? 's' : ''}`
        : `running at ${where}, no models pulled yet (ollama pull NAME)`,
    models,
  });
}

async function probeLocalServer(port: number, timeoutMs: number): Promise<SetupCandidate | undefined> {
  const baseUrl = `http://127.0.0.1:${port}/v1`;
  const listed = await fetchModelIds({ api: 'openai', baseUrl }, undefined, timeoutMs);
  if (!listed.ok) return undefined;
  return {
    provider: `local-${port}`,
    label: `OpenAI-compatible server on 127.0.0.1:${port}`,
    api: 'openai',
    baseUrl,
    needsKey: false,
    source: 'local',
    detail: `${listed.models.length} model${listed.models.length === 1 ? '' : 's'}${listed.models[0] ? ` (${listed.models.slice(0, 3).join(', ')})` : ''}`,
    models: listed.models,
  };
}

/**
 * What this machine already has, found without sending anything beyond
 * loopback: environment keys (never read out, only named), credentials files,
 * Ollama, OpenAI-compatible servers on the usual local ports. All probes run
 * at once with a short timeout, so a quiet machine answers in under a second.
 */
export async function detectProviders(options: DetectOptions): Promise<SetupCandidate[]> {
  const { env, credentialsDir } = options;
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const ports = options.localPorts ?? localPortsFrom(env);
  const ollamaPort = Number(new URL(ollamaOrigin(env)).port);
  const [ollama, ...servers] = await Promise.all([
    probeOllama(env, timeoutMs),
    ...ports.filter((port) => port !== ollamaPort).map((port) => probeLocalServer(port, timeoutMs)),
  ]);
  const found: SetupCandidate[] = [];
  for (const preset of providerPresets) {
    if (!preset.keyEnv || !env[preset.keyEnv]?.trim()) continue;
    found.push(presetCandidate(preset, { source: 'env', keyFound: 'env', detail: `${preset.keyEnv} is set in the environment` }));
  }
  for (const name of credentialFileProviders(credentialsDir)) {
    if (found.some((c) => c.provider === name)) continue;
    const preset = findPreset(name);
    if (!preset) continue;
    found.push(presetCandidate(preset, { source: 'credentials', keyFound: 'credentials', detail: `key in credentials/${name}.json` }));
  }
  if (ollama) found.push(ollama);
  for (const server of servers) if (server) found.push(server);
  return found;
}

/** Detected providers first, then every named provider not already among them, then a custom URL. */
export function setupChoices(detected: readonly SetupCandidate[], credentialsDir: string): SetupCandidate[] {
  const rest = providerPresets
    .filter((preset) => !detected.some((c) => c.provider === preset.name))
    .map((preset) => presetCandidate(preset, hasCredentials(credentialsDir, preset.name) ? { keyFound: 'credentials' } : {}));
  return [...detected, ...rest];
}

import { z } from 'zod';
import { lazySchema } from '../lazy-schema.js';
import { defineMethod } from '../define.js';

/**
 * One provider `claw setup` can configure: found on this machine (an
 * environment key, a local server, a credentials file) or offered by name.
 */
export const setupCandidate = lazySchema(() =>
  z.strictObject({
    /** The provider's name in claw.json and credentials/<name>.json. */
    provider: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/),
    label: z.string().max(200),
    api: z.enum(['openai', 'anthropic']),
    baseUrl: z.string().url(),
    /** The environment variable the provider's key is read from. */
    keyEnv: z.string().max(100).optional(),
    /** False for local servers that take no key. */
    needsKey: z.boolean(),
    /** Where a key was already found, so none has to be typed. */
    keyFound: z.enum(['env', 'credentials']).optional(),
    source: z.enum(['env', 'credentials', 'ollama', 'local', 'preset', 'custom']),
    /** What was found, in a few words; never a key. */
    detail: z.string().max(300),
    /** Model ids the server already reported while it was detected. */
    models: z.array(z.string()).optional(),
  }),
);
export type SetupCandidate = z.infer<typeof setupCandidate>;

const apiKey = lazySchema(() => z.string().min(1).max(4096).optional());

export const setupStatus = lazySchema(() =>
  z.strictObject({
    /** A model is configured (or found) for the default agent. */
    configured: z.boolean(),
    model: z.string().nullable(),
    /** The default model's provider failed a quick check: what failed, and the one command that fixes it. */
    problem: z.strictObject({ message: z.string(), fix: z.string() }).optional(),
  }),
);
export type SetupStatus = z.infer<typeof setupStatus>;

export const setupTestResult = lazySchema(() =>
  z.strictObject({
    ok: z.boolean(),
    /** The model's answer to the test prompt. */
    text: z.string().optional(),
    /** The provider's error, word for word. */
    error: z.string().optional(),
    ms: z.number(),
  }),
);
export type SetupTestResult = z.infer<typeof setupTestResult>;

export const setupApplyResult = lazySchema(() =>
  z.strictObject({
    model: z.string(),
    role: z.enum(['primary', 'fallback']),
    fallbacks: z.array(z.string()),
    configFile: z.string(),
    /** Written when a key was given; mode 0600. */
    credentialsFile: z.string().optional(),
    /** Workspace files written from the names given. */
    identityFiles: z.array(z.string()),
  }),
);
export type SetupApplyResult = z.infer<typeof setupApplyResult>;

export const setupMethods = {
  'setup.status': defineMethod({
    name: 'setup.status',
    description: 'Whether a model is configured, and whether its provider answers (first-run screen, header warning).',
    params: () => z.strictObject({}).optional(),
    result: () => setupStatus,
    scope: 'read',
    mutating: false,
  }),
  'setup.detect': defineMethod({
    name: 'setup.detect',
    description: 'Providers found on the gateway host (environment keys, Ollama, local OpenAI-compatible servers, credentials), then the ones offered by name.',
    params: () => z.strictObject({}).optional(),
    result: () => z.strictObject({ candidates: z.array(setupCandidate) }),
    scope: 'admin',
    mutating: false,
  }),
  'setup.models': defineMethod({
    name: 'setup.models',
    description: "The provider's own model list, fetched live; `error` is the provider's answer when it refused.",
    params: () => z.strictObject({ candidate: setupCandidate, apiKey }),
    result: () => z.strictObject({ models: z.array(z.string()), error: z.string().optional() }),
    scope: 'admin',
    mutating: false,
  }),
  'setup.test': defineMethod({
    name: 'setup.test',
    description: 'One tiny request to the model, so a wrong key or model shows before anything is saved.',
    params: () => z.strictObject({ candidate: setupCandidate, model: z.string().min(1).max(200), apiKey }),
    result: () => setupTestResult,
    scope: 'admin',
    mutating: false,
  }),
  'setup.apply': defineMethod({
    name: 'setup.apply',
    description: 'Saves the key (credentials/<provider>.json, 0600) and the model (claw.json), and applies them at once.',
    params: () =>
      z.strictObject({
        candidate: setupCandidate,
        model: z.string().min(1).max(200),
        apiKey,
        role: z.enum(['primary', 'fallback']).optional(),
        agentName: z.string().min(1).max(100).optional(),
        userName: z.string().min(1).max(100).optional(),
        idempotencyKey: z.string().max(128).optional(),
      }),
    result: () => setupApplyResult,
    scope: 'admin',
    mutating: true,
  }),
};

/**
 * "Any OpenAI-compatible URL": a candidate from what the user typed. A bare
 * origin gets `/v1`, where llama.cpp, vLLM and LM Studio serve the API.
 * Throws a message to show when the text is not an http(s) URL.
 */
export function customSetupCandidate(typed: string): SetupCandidate {
  const text = typed.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z]+:\/\//i.test(text) ? text : `http://${text}`);
  } catch {
    throw new Error(`"${text}" is not a URL; type one like http://127.0.0.1:8000/v1.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`"${text}" is not an http(s) URL; type one like http://127.0.0.1:8000/v1.`);
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/v1';
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  const host = url.hostname
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
  const provider = (loopback ? `local-${url.port || (url.protocol === 'https:' ? '443' : '80')}` : host || 'custom').slice(0, 40);
  return {
    provider,
    label: `OpenAI-compatible server at ${url.host}`,
    api: 'openai',
    baseUrl: url.toString().replace(/\/+$/, ''),
    needsKey: false,
    source: 'custom',
    detail: url.toString(),
  };
}

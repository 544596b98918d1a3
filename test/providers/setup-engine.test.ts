import { readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, readRawConfig } from '../../source/config/index.js';
import { applySetupSync, detectProviders, fetchModelIds, findPreset, presetCandidate, runTestRequest, setupChoices } from '../../source/providers/index.js';
import { customSetupCandidate } from '../../source/protocol/index.js';
import { startFakeOllama, startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

/** A loopback port nothing listens on (bound, then freed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const portOf = (server: FakeLlmServer): number => Number(new URL(server.url).port);
const SECRET = 'sk-test-never-printed-4f1c';

let state: TempState;
let local: FakeLlmServer;
let ollama: FakeLlmServer;

beforeEach(async () => {
  state = makeTempState();
  local = await startFakeOpenAI();
  ollama = await startFakeOllama();
});
afterEach(async () => {
  await Promise.all([local.close(), ollama.close()]);
  state.cleanup();
});

describe('setup detection', () => {
  it('finds a fake Ollama, a fake OpenAI-compatible server on a told port and an environment key, without carrying the key', async () => {
    local.setModels(['qwen-7b', 'llama-3b']);
    ollama.setModels(['llama3.2:3b']);
    const silent = await closedPort();
    const env = { OPENAI_API_KEY: SECRET, OLLAMA_HOST: ollama.url, CLAW_SETUP_PORTS: `${portOf(local)},${silent}` };
    const found = await detectProviders({ env, credentialsDir: state.paths.credentials });

    expect(found.map((c) => `${c.source}:${c.provider}`)).toEqual(['env:openai', 'ollama:ollama', `local:local-${portOf(local)}`]);
    expect(found[0]).toMatchObject({ keyFound: 'env', keyEnv: 'OPENAI_API_KEY', detail: 'OPENAI_API_KEY is set in the environment' });
    expect(found[1]).toMatchObject({ baseUrl: `${ollama.url}/v1`, models: ['llama3.2:3b'] });
    expect(found[2]).toMatchObject({ baseUrl: `${local.url}/v1`, models: ['llama-3b', 'qwen-7b'], needsKey: false });
    expect(JSON.stringify(found)).not.toContain(SECRET);
    // Probes are reads of the model list only: nothing was sent to any model.
    expect(local.requests).toHaveLength(0);
    expect(ollama.listings.map((r) => r.path)).toEqual(['/api/tags']);

    const choices = setupChoices(found, state.paths.credentials);
    expect(choices.slice(0, 3)).toEqual(found);
    expect(choices.map((c) => c.provider)).toContain('anthropic');
    expect(choices.filter((c) => c.provider === 'openai')).toHaveLength(1);
  });

  it('offers a provider whose key is in credentials/, and reports a quiet machine as nothing found', async () => {
    mkdirSync(state.paths.credentials, { recursive: true });
    writeFileSync(`${state.paths.credentials}/anthropic.json`, '{"apiKey": "sk-ant-x"}', { mode: 0o600 });
    const silent = await closedPort();
    const found = await detectProviders({
      env: { OLLAMA_HOST: `127.0.0.1:${silent}`, CLAW_SETUP_PORTS: String(silent) },
      credentialsDir: state.paths.credentials,
    });
    expect(found).toEqual([expect.objectContaining({ provider: 'anthropic', source: 'credentials', keyFound: 'credentials' })]);
  });
});

describe('setup model list and test request', () => {
  it("shows the provider's own refusal for a wrong key, and the answer for the right one", async () => {
    local.requireKey('sk-right');
    local.setModels(['m1']);
    const candidate = customSetupCandidate(local.url);
    expect(candidate.baseUrl).toBe(`${local.url}/v1`);

    const refusedList = await fetchModelIds(candidate, 'sk-wrong');
    expect(refusedList).toMatchObject({ ok: false, error: expect.stringContaining('Incorrect API key provided') });
    const refused = await runTestRequest(candidate, 'm1', 'sk-wrong', { now: () => 0 });
    expect(refused).toMatchObject({ ok: false, error: expect.stringMatching(/HTTP 401.*Incorrect API key provided/) });

    expect(await fetchModelIds(candidate, 'sk-right')).toEqual({ ok: true, models: ['m1'] });
    local.reply({ text: 'ok' });
    expect(await runTestRequest(candidate, 'm1', 'sk-right', { now: () => 0 })).toMatchObject({ ok: true, text: 'ok' });
    expect(local.requests.at(-1)?.body.model).toBe('m1');
  });

  it('names an unreachable server as a connection failure', async () => {
    const candidate = customSetupCandidate(`127.0.0.1:${await closedPort()}`);
    const result = await runTestRequest(candidate, 'm', undefined, { now: () => 0 });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/connection failed/);
  });
});

describe('setup apply', () => {
  it('keeps the key in credentials/ (0600), never in claw.json, and a second run adds a fallback', () => {
    const openai = presetCandidate(findPreset('openai')!);
    const first = applySetupSync(state.paths, { candidate: openai, model: 'gpt-4.1', apiKey: SECRET });
    expect(first).toMatchObject({ model: 'openai/gpt-4.1', role: 'primary', fallbacks: [] });
    expect(statSync(first.credentialsFile!).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(first.credentialsFile!, 'utf8'))).toEqual({ apiKey: SECRET });
    expect(readFileSync(state.paths.config, 'utf8')).not.toContain(SECRET);
    // A catalogue model keeps its known window: no models entry is written for it.
    expect(readRawConfig(state.paths.config).models).toEqual({ providers: {} });

    const server = customSetupCandidate(local.url);
    const second = applySetupSync(state.paths, { candidate: server, model: 'qwen-7b' });
    expect(second).toMatchObject({ model: `${server.provider}/qwen-7b`, role: 'fallback', fallbacks: [`${server.provider}/qwen-7b`] });
    const config = loadConfig(state.paths.config);
    expect(config.agents.defaults.model).toBe('openai/gpt-4.1');
    expect(config.models.providers[server.provider]).toMatchObject({ api: 'openai', baseUrl: `${local.url}/v1`, models: { 'qwen-7b': {} } });

    const third = applySetupSync(state.paths, { candidate: server, model: 'qwen-7b', role: 'primary' });
    expect(third).toMatchObject({ role: 'primary', fallbacks: ['openai/gpt-4.1'] });
  });

  it('writes nothing when the result would not be a valid config', () => {
    writeFileSync(state.paths.config, '{"agents": {"defaults": {"model": "x"}}}');
    expect(() => applySetupSync(state.paths, { candidate: customSetupCandidate(local.url), model: 'm', apiKey: SECRET })).toThrow(/not valid/);
    expect(readFileSync(state.paths.config, 'utf8')).toBe('{"agents": {"defaults": {"model": "x"}}}');
    expect(() => statSync(`${state.paths.credentials}/local-${portOf(local)}.json`)).toThrow();
  });
});

import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { splitModelRef } from '../../source/providers/index.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { baseRequest, collect, doneOf, makeProviders } from './helpers.js';

let state: TempState;
let ollama: Server | undefined;

beforeEach(() => {
  state = makeTempState();
});
afterEach(async () => {
  if (ollama) {
    const server = ollama;
    ollama = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  state.cleanup();
});

/** An Ollama stand-in answering /api/tags; returns its host:port for OLLAMA_HOST. */
async function startOllamaTags(models: string[]): Promise<string> {
  ollama = createServer((req, res) => {
    res.writeHead(req.url === '/api/tags' ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ models: models.map((name) => ({ name, model: name, size: 1 })) }));
  });
  await new Promise<void>((resolve) => ollama?.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(ollama.address() as AddressInfo).port}`;
}

function writeCredentials(provider: string, content: string, mode: number): void {
  mkdirSync(state.paths.credentials, { recursive: true });
  const file = `${state.paths.credentials}/${provider}.json`;
  writeFileSync(file, content);
  chmodSync(file, mode);
}

describe('model catalogue and credentials', () => {
  it('splits refs on the first slash and rejects malformed ones', () => {
    expect(splitModelRef('openrouter/anthropic/claude-3.5')).toEqual({ provider: 'openrouter', id: 'anthropic/claude-3.5' });
    expect(() => splitModelRef('gpt-4o')).toThrow(/provider\/model/);
    expect(() => splitModelRef('openai/')).toThrow(/provider\/model/);
  });

  it('resolves built-in models, config overrides and unknown models with defaults', () => {
    const providers = makeProviders(state, {
      models: { providers: { openai: { models: { 'gpt-4o': { contextWindow: 64_000 } } }, local: { api: 'openai', baseUrl: 'http://127.0.0.1:1/v1' } } },
    });
    expect(providers.resolveModel('anthropic/claude-sonnet-4-5')).toMatchObject({
      api: 'anthropic',
      contextWindow: 200_000,
      reasoning: true,
      known: true,
      baseUrl: 'https://api.anthropic.com',
    });
    expect(providers.resolveModel('openai/gpt-4o')).toMatchObject({ contextWindow: 64_000, baseUrl: 'https://api.openai.com/v1', known: true });
    expect(providers.resolveModel('local/whatever')).toMatchObject({ api: 'openai', known: false, contextWindow: 32_768 });
    expect(() => providers.resolveModel('nope/x')).toThrow(/Unknown provider "nope".*models\.providers\.nope/);
  });

  it('rejects a custom provider without an api and a baseUrl, saying which keys to add', () => {
    const providers = makeProviders(state, { models: { providers: { mine: {} } } });
    expect(() => providers.resolveModel('openai/gpt-4o')).toThrow(/models\.providers\.mine.*"api": "openai" or "anthropic" and a "baseUrl"/);
  });

  it('reads auth profiles from a 0600 credentials file and refuses a world-readable one', async () => {
    const llm: FakeLlmServer = await startFakeOpenAI();
    try {
      const providers = makeProviders(state, { models: { providers: { openai: { baseUrl: llm.baseUrl } } } });
      writeCredentials('openai', '// comments are fine\n{"apiKey": "from-file"}', 0o600);
      llm.reply({ text: 'ok' });
      const done = doneOf(await collect(providers.streamTurn(baseRequest('openai/gpt-4o'))));
      expect(done.profile).toBe('file:default');
      expect(llm.requests[0]?.headers.authorization).toBe('Bearer from-file');
      expect(llm.requests[0]?.body).toHaveProperty('max_completion_tokens', 16_384);

      chmodSync(`${state.paths.credentials}/openai.json`, 0o644);
      await expect(collect(providers.streamTurn(baseRequest('openai/gpt-4o')))).rejects.toThrow(/readable by other users; run `chmod 600/);
      writeCredentials('openai', '{"profiles": []}', 0o600);
      await expect(collect(providers.streamTurn(baseRequest('openai/gpt-4o')))).rejects.toThrow(/not a valid credentials file/);
      expect(llm.requests).toHaveLength(1);
    } finally {
      await llm.close();
    }
  });

  it('picks a default model: configured provider, then keys, then a live Ollama', async () => {
    const none = makeProviders(state, {}, { env: { OLLAMA_HOST: '127.0.0.1:9' } });
    expect(await none.defaultModel()).toBeUndefined();
    expect(none.setupGuide()).toMatch(/ANTHROPIC_API_KEY.*OPENAI_API_KEY/s);
    expect(none.setupGuide()).toContain(`${state.paths.credentials}/anthropic.json`);
    expect(none.setupGuide()).toContain('http://127.0.0.1:9');

    expect(await makeProviders(state, {}, { env: { OPENAI_API_KEY: 'k' } }).defaultModel()).toBe('openai/gpt-4.1');
    expect(await makeProviders(state, {}, { env: { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' } }).defaultModel()).toBe('anthropic/claude-sonnet-4-5');
    const custom = makeProviders(
      state,
      { models: { providers: { local: { api: 'openai', baseUrl: 'http://127.0.0.1:1/v1', models: { qwen: {} } } } } },
      { env: { ANTHROPIC_API_KEY: 'k' } },
    );
    expect(await custom.defaultModel()).toBe('local/qwen');

    const host = await startOllamaTags(['llama3.2:latest', 'qwen3:8b']);
    const local = makeProviders(state, {}, { env: { OLLAMA_HOST: host } });
    expect(await local.defaultModel()).toBe('ollama/llama3.2:latest');
    expect(local.resolveModel('ollama/qwen3:8b')).toMatchObject({ baseUrl: `http://${host}/v1`, api: 'openai' });
    const listed = await local.listModels();
    expect(listed.filter((m) => m.source === 'ollama').map((m) => m.ref)).toEqual(['ollama/llama3.2:latest', 'ollama/qwen3:8b']);
    expect(listed.filter((m) => m.ready).every((m) => m.provider === 'ollama')).toBe(true);
  });

  it('lists built-in and configured models with readiness', async () => {
    const providers = makeProviders(
      state,
      { models: { providers: { local: { api: 'openai', baseUrl: 'http://127.0.0.1:1/v1', models: { tiny: { contextWindow: 4096 } } } } } },
      { env: { ANTHROPIC_API_KEY: 'k', OLLAMA_HOST: '127.0.0.1:9' } },
    );
    const listed = await providers.listModels();
    expect(listed.find((m) => m.ref === 'anthropic/claude-sonnet-4-5')).toMatchObject({ ready: true, source: 'builtin' });
    expect(listed.find((m) => m.ref === 'openai/gpt-4o')).toMatchObject({ ready: false });
    expect(listed.find((m) => m.ref === 'local/tiny')).toMatchObject({ ready: true, source: 'config', contextWindow: 4096 });
  });
});

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import { makeTempState } from '../support/temp-state.js';
import { KEYS, openApp, type AppHarness } from './support/app-harness.js';

const poll = { timeout: 10_000, interval: 20 };

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const quietEnv = async () => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  OLLAMA_HOST: `127.0.0.1:${await closedPort()}`,
  CLAW_SETUP_PORTS: String(await closedPort()),
});

let app: AppHarness | undefined;
let llm: FakeLlmServer | undefined;
let cleanup: (() => void) | undefined;

afterEach(async () => {
  await app?.stop();
  await llm?.close();
  cleanup?.();
  app = undefined;
  llm = undefined;
  cleanup = undefined;
});

describe('TUI setup screen', () => {
  it('walks a custom URL with a hidden key through a failed and a passing test, asks the names, and saves', { timeout: 60_000 }, async () => {
    llm = await startFakeOpenAI();
    llm.requireKey('sk-typed-secret');
    llm.setModels(['alpha', 'beta']);
    app = await openApp([], { cols: 100, rows: 30 }, { core: { env: await quietEnv() } });
    const a = app;
    await expect.poll(() => a.frame(), poll).toContain('No model configured. Enter or /setup adds one.');
    expect(a.frame()).toContain(' no model ·');

    a.type(KEYS.enter);
    await expect.poll(() => a.frame(), poll).toContain('Nothing found locally. Choose a provider:');
    // Up from the first row wraps to the last: any OpenAI-compatible URL.
    a.type(KEYS.up);
    await expect.poll(() => a.frame(), poll).toContain('❯ Any OpenAI-compatible URL');
    a.type(KEYS.enter);
    await expect.poll(() => a.frame(), poll).toContain('Base URL of the OpenAI-compatible server');
    a.type('not a url at all');
    a.type(KEYS.enter);
    await expect.poll(() => a.flat(), poll).toContain('is not a URL; type one like http://127.0.0.1:8000/v1.');
    a.type(KEYS.ctrlU);
    a.type(llm.url);
    a.type(KEYS.enter);
    await expect.poll(() => a.frame(), poll).toContain('API key if the server needs one');
    a.type('sk-typed-secret');
    await expect.poll(() => a.frame(), poll).toContain('•'.repeat('sk-typed-secret'.length));
    expect(a.frame()).not.toContain('sk-typed-secret');
    a.type(KEYS.enter);
    await expect.poll(() => a.frame(), poll).toContain('❯ alpha');
    expect(a.frame()).toContain('  beta');

    llm.reply({ error: 'not_found' }, { text: 'ok' }, { text: 'answered by beta' });
    a.type(KEYS.enter);
    await expect.poll(() => a.flat(), poll).toMatch(/did not work: .*HTTP 404 \(invalid_request_error: The model does not exist\.\)/);
    a.type(KEYS.enter);
    await expect.poll(() => a.frame(), poll).toContain('❯ alpha');
    a.type('bet');
    await expect.poll(() => a.frame(), poll).toContain('❯ beta');
    expect(a.frame()).not.toContain('alpha');
    a.type(KEYS.enter);
    const port = new URL(llm.url).port;
    await expect.poll(() => a.frame(), poll).toContain(`✓ local-${port}/beta answered: "ok"`);
    a.type('Pim');
    a.type(KEYS.enter);
    await expect.poll(() => a.frame(), poll).toContain('Optional: your name');
    a.type('Ana');
    a.type(KEYS.enter);
    await expect.poll(() => a.frame(), poll).toContain(`Saved local-${port}/beta as the main model`);
    expect(a.frame()).not.toContain('sk-typed-secret');
    a.type(KEYS.enter);
    await expect.poll(() => a.frame(), poll).not.toContain('Set up a model');
    expect(a.frame()).toContain(`local-${port}/beta`);

    const paths = a.gateway.state.paths;
    expect(JSON.parse(readFileSync(`${paths.credentials}/local-${port}.json`, 'utf8'))).toEqual({ apiKey: 'sk-typed-secret' });
    expect(readFileSync(paths.config, 'utf8')).not.toContain('sk-typed-secret');
    expect(readFileSync(`${paths.workspace('main')}/IDENTITY.md`, 'utf8')).toContain('- Name: Pim');

    a.type('hi');
    a.type(KEYS.enter);
    await expect.poll(() => a.frame(), poll).toContain('answered by beta');
  });

  it('shows a provider that fails its start-up check under the header, the fix on its own line; /setup opens and Esc leaves', { timeout: 30_000 }, async () => {
    llm = await startFakeOpenAI();
    llm.requireKey('sk-good');
    const state = makeTempState();
    cleanup = state.cleanup;
    mkdirSync(state.paths.credentials, { recursive: true });
    writeFileSync(`${state.paths.credentials}/box.json`, '{"apiKey": "sk-bad"}', { mode: 0o600 });
    const config = { models: { providers: { box: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } }, agents: { defaults: { model: 'box/m' } } };
    app = await openApp([], { cols: 100, rows: 30 }, { state, config, core: { env: await quietEnv() } });
    const a = app;
    await expect.poll(() => a.frame(), poll).toContain('⚠ box is not answering');
    const lines = a.frame().split('\n');
    expect(lines[1]).toMatch(/⚠ box is not answering: .*HTTP 401/);
    expect(lines[2]?.trimEnd()).toBe(' fix: /setup here, or in a shell:  claw setup');
    expect(a.frame()).toContain(' box/m ·');
    expect(a.frame()).not.toContain('No model configured');

    a.type('/setup');
    a.type(KEYS.enter);
    await expect.poll(() => a.frame(), poll).toContain('Set up a model');
    a.type(KEYS.esc);
    await expect.poll(() => a.frame(), poll).not.toContain('Set up a model');
  });
});

import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { customSetupCandidate } from '../../source/protocol/index.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let gateway: TestGateway | undefined;
let llm: FakeLlmServer | undefined;

afterEach(async () => {
  await gateway?.stop();
  await llm?.close();
  gateway = undefined;
  llm = undefined;
});

const quietEnv = async (extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  OLLAMA_HOST: `127.0.0.1:${await closedPort()}`,
  CLAW_SETUP_PORTS: String(await closedPort()),
  ...extra,
});

describe('setup.* over the gateway', () => {
  it('reports no model on a fresh state dir, then detect → test → apply makes the next turn use the model at once', { timeout: 30_000 }, async () => {
    llm = await startFakeOpenAI();
    llm.setModels(['m']);
    gateway = await startTestGateway({ core: { env: await quietEnv({ CLAW_SETUP_PORTS: new URL(llm.url).port, OPENROUTER_API_KEY: 'sk-or-hidden' }) } });
    const client = await gateway.connect();

    expect(await client.request('setup.status', {})).toEqual({ configured: false, model: null });
    const { candidates } = await client.request('setup.detect', {});
    expect(candidates[0]).toMatchObject({ provider: 'openrouter', source: 'env', keyFound: 'env' });
    expect(JSON.stringify(candidates)).not.toContain('sk-or-hidden');
    const local = candidates.find((c) => c.source === 'local')!;
    expect(local).toMatchObject({ baseUrl: llm.baseUrl, models: ['m'] });

    expect(await client.request('setup.models', { candidate: local })).toEqual({ models: ['m'] });
    // A candidate claiming the OpenRouter key but pointing elsewhere gets no key from the gateway's environment.
    llm.reply({ text: 'ok' });
    const spoofed = { ...local, provider: 'openrouter', keyEnv: 'OPENROUTER_API_KEY', keyFound: 'env' as const };
    expect(await client.request('setup.test', { candidate: spoofed, model: 'm' })).toMatchObject({ ok: true });
    expect(llm.requests.at(-1)?.headers.authorization).toBeUndefined();
    llm.requests.length = 0;
    llm.reply({ text: 'ok' }, { text: 'first real answer' });
    expect(await client.request('setup.test', { candidate: local, model: 'm' })).toMatchObject({ ok: true, text: 'ok' });
    const saved = await client.request('setup.apply', { candidate: local, model: 'm', userName: 'Ana' });
    expect(saved).toMatchObject({ model: `${local.provider}/m`, role: 'primary', identityFiles: [expect.stringMatching(/USER\.md$/)] });
    expect(await client.request('setup.status', {})).toEqual({ configured: true, model: `${local.provider}/m` });

    const sent = await client.request('chat.send', { sessionKey: 'agent:main:main', text: 'hi', idempotencyKey: 'first' });
    expect(sent.runId).toBeTruthy();
    await llm.waitForRequests(2);
    expect(llm.requests[1]?.body.model).toBe('m');
  });

  it("names a provider that fails its check at start (bad key, server down) with the fix, in the provider's words", { timeout: 30_000 }, async () => {
    llm = await startFakeOpenAI();
    llm.requireKey('sk-good');
    const config = {
      models: { providers: { box: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
      agents: { defaults: { model: 'box/m' } },
    };
    gateway = await startTestGateway({ config, core: { env: await quietEnv() } });
    mkdirSync(gateway.state.paths.credentials, { recursive: true });
    writeFileSync(`${gateway.state.paths.credentials}/box.json`, '{"apiKey": "sk-bad"}', { mode: 0o600 });
    const client = await gateway.connect();
    const badKey = await client.request('setup.status', {});
    expect(badKey).toMatchObject({ configured: true, model: 'box/m', problem: { fix: 'claw setup' } });
    expect(badKey.problem?.message).toMatch(/box is not answering: .*HTTP 401.*Incorrect API key provided/);

    await llm.close();
    llm = undefined;
    const down = await client.request('setup.status', {});
    expect(down.problem?.message).toMatch(/box is not answering: .*connection failed/);
  });

  it('refuses a test of a server that is not there with the connection error, and apply of a bad model with a clear one', { timeout: 30_000 }, async () => {
    gateway = await startTestGateway({ core: { env: await quietEnv() } });
    const client = await gateway.connect();
    const candidate = customSetupCandidate(`127.0.0.1:${await closedPort()}`);
    const result = await client.request('setup.test', { candidate, model: 'm' });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/connection failed/);
    await expect(client.request('setup.apply', { candidate, model: ' ' })).rejects.toThrow(/No model was chosen/);
  });
});

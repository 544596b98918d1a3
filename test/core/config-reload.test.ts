import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayClient } from '../../source/client/index.js';
import { writeRawConfig } from '../../source/config/index.js';
import type { ChatEventPayload, ConfigStatus } from '../../source/protocol/index.js';
import { TuiStore, initialState } from '../../source/tui/index.js';
import { runCli } from '../support/cli-process.js';
import type { FakeLlmServer } from '../support/fake-llm-common.js';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import { startGatewayChild, type GatewayChild } from '../support/gateway-child.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

const KEY = 'agent:main:main';

let state: TempState | undefined;
let gateway: GatewayChild | undefined;
let llm: FakeLlmServer | undefined;
let client: GatewayClient | undefined;

afterEach(async () => {
  client?.close();
  await gateway?.stop();
  await llm?.close();
  state?.cleanup();
  client = gateway = llm = state = undefined;
});

async function until<T>(probe: () => T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('claw.json reloads into the running gateway', { timeout: 90_000 }, () => {
  it('a provider added while a TUI is attached answers the next message; a broken file keeps the last good config and names the key; restart refuses', async () => {
    state = makeTempState();
    gateway = await startGatewayChild(state);
    client = await gateway.connect();
    const store = new TuiStore(initialState({ sessionKey: KEY }));
    const chats: ChatEventPayload[] = [];
    const configs: ConfigStatus[] = [];
    client.on('*', (payload, _seq, event) => store.applyEvent(event, payload));
    client.on('chat', (payload) => chats.push(payload));
    client.on('config', (payload) => configs.push(payload));
    const send = async (text: string): Promise<ChatEventPayload> => {
      const { runId } = await client!.request('chat.send', { sessionKey: KEY, text });
      return until(() => chats.find((c) => c.runId === runId && c.state !== 'delta'), `the end of run ${runId}`);
    };

    expect(await send('before')).toMatchObject({ state: 'error', message: expect.stringMatching(/No model provider is configured/) });

    llm = await startFakeOpenAI();
    llm.setDefault({ text: 'hello from the new provider' });
    writeRawConfig(state.paths.config, {
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
      agents: { defaults: { model: 'fake/m' } },
    });
    await until(() => configs.find((c) => c.state === 'ok'), 'the reload');
    expect(await send('after')).toMatchObject({ state: 'final', text: 'hello from the new provider' });
    expect(llm.requests).toHaveLength(1);

    writeFileSync(state.paths.config, '{"gateway": {"prot": 1}}\n');
    await until(() => configs.find((c) => c.state === 'invalid'), 'the invalid report');
    const shown = store.getState().chats[KEY]!.items.find((item) => item.kind === 'error' && item.message.includes('claw.json is invalid'));
    expect(shown).toMatchObject({ hint: expect.stringContaining('gateway.prot') });
    const status = await client.request('status', {});
    expect(status.config).toMatchObject({ state: 'invalid', error: expect.stringContaining('unknown key gateway.prot') });
    expect(await send('still running')).toMatchObject({ state: 'final', text: 'hello from the new provider' });

    const restart = await runCli(['gateway', 'restart'], state.env);
    expect(restart.code).toBe(1);
    expect(restart.stderr).toMatch(/not restarting[\s\S]*gateway\.prot/);
    const after = await client.request('status', {});
    expect(after.pid).toBe(status.pid);
    expect(after.epoch).toBe(status.epoch);

    const cli = await runCli(['status'], state.env);
    expect(cli.stdout).toMatch(/config\s+claw\.json is INVALID[\s\S]*gateway\.prot/);
  });

  it('a change to the port is reported as waiting for a restart, not applied', async () => {
    state = makeTempState();
    gateway = await startGatewayChild(state);
    client = await gateway.connect();
    const configs: ConfigStatus[] = [];
    client.on('config', (payload) => configs.push(payload));
    writeRawConfig(state.paths.config, { gateway: { port: 1 } });
    const reported = await until(() => configs.find((c) => c.state === 'restart-needed'), 'the restart-needed report');
    expect(reported.restartNeeded).toEqual(['gateway.port']);
    expect((await client.request('status', {})).port).toBe(Number(new URL(gateway.url).port));
  });
});

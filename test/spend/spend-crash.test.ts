import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { writeRawConfig } from '../../source/config/index.js';
import type { ChatEventPayload } from '../../source/protocol/index.js';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import type { FakeLlmServer } from '../support/fake-llm-common.js';
import { startGatewayChild, type GatewayChild } from '../support/gateway-child.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { MAX_OUTPUT, PRICE } from './spend-harness.js';

let llm: FakeLlmServer | undefined;
let child: GatewayChild | undefined;
let state: TempState | undefined;
afterEach(async () => {
  await child?.kill9();
  await llm?.close();
  state?.cleanup();
  child = llm = state = undefined;
});

async function waitFor(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 600; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

type Row = { state: string; usd: number; tokens: number; estimated: number };

function ledgerRows(state: TempState): Row[] {
  const Database = createRequire(import.meta.url)('better-sqlite3') as typeof import('better-sqlite3');
  const db = new Database(state.paths.spendLedger, { readonly: true });
  try {
    return db.prepare('SELECT state, usd, tokens, estimated FROM calls ORDER BY at').all() as Row[];
  } finally {
    db.close();
  }
}

const cost = (input: number, output: number): number => (input * PRICE.input + output * PRICE.output) / 1_000_000;

describe('spend across kill -9', () => {
  it('settled calls are counted once, a call cut by the kill is settled at its worst case, and no reservation stays held', async () => {
    llm = await startFakeOpenAI();
    state = makeTempState();
    writeRawConfig(state.paths.config, {
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: { maxOutput: MAX_OUTPUT, cost: PRICE } } } } },
      agents: { defaults: { model: 'fake/m', heartbeat: { every: '0' } } },
    });
    child = await startGatewayChild(state);
    let client = await child.connect();
    const chat: ChatEventPayload[] = [];
    client.on('chat', (payload) => chat.push(payload as ChatEventPayload));
    llm.reply({ text: 'one', usage: { input: 2000, output: 10 } }, { text: 'two', usage: { input: 3000, output: 20 } });
    await client.request('chat.send', { sessionKey: 'agent:main:main', text: 'first' });
    await waitFor(() => chat.filter((event) => event.state === 'final').length === 1, 'the first reply');
    await client.request('chat.send', { sessionKey: 'agent:main:main', text: 'second' });
    await waitFor(() => chat.filter((event) => event.state === 'final').length === 2, 'the second reply');
    const settled = cost(2000, 10) + cost(3000, 20);
    await waitFor(async () => Math.abs((await client.request('spend.status', {})).today.usd - settled) < 1e-12, 'the settled spend');

    // A third call is in flight (reserved, streaming nothing) when the gateway is killed.
    llm.reply({ text: 'never', hang: true });
    await client.request('chat.send', { sessionKey: 'agent:main:tui:direct:other', text: 'third' });
    await llm.waitForRequests(3);
    const held = ledgerRows(state).filter((row) => row.state === 'reserved');
    expect(held).toHaveLength(1);
    const worst = held[0]!;
    await child.kill9();

    // The journal replays the cut message after the restart: that call is a new one, answered normally.
    llm.reply({ text: 'three', usage: { input: 4000, output: 30 } });
    child = await startGatewayChild(state);
    client = await child.connect();
    await llm.waitForRequests(4);
    await waitFor(() => ledgerRows(state!).every((row) => row.state !== 'reserved'), 'no call left reserved');
    const rows = ledgerRows(state);
    expect(rows.map((row) => row.state)).toEqual(['settled', 'settled', 'orphaned', 'settled']);
    expect(rows[2]).toMatchObject({ usd: worst.usd, tokens: worst.tokens, estimated: 1 });
    const status = await client.request('spend.status', {});
    expect(status.today.usd).toBeCloseTo(settled + worst.usd + cost(4000, 30), 12);
    expect(status.today.calls).toBe(4);
    expect(status.estimatedCalls).toBe(1);
  });
});

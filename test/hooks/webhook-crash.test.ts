import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeRawConfig } from '../../source/config/index.js';
import { readWebhookTokenSync } from '../../source/hooks/index.js';
import { readGatewayInfoSync } from '../../source/client/index.js';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import type { FakeLlmServer } from '../support/fake-llm-common.js';
import { startGatewayChild, type GatewayChild } from '../support/gateway-child.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

let child: GatewayChild | undefined;
let llm: FakeLlmServer | undefined;
let state: TempState | undefined;
afterEach(async () => {
  if (child) await child.kill9();
  await llm?.close();
  state?.cleanup();
  child = undefined;
  llm = undefined;
  state = undefined;
});

describe('a webhook accepted before a crash', () => {
  it('still runs after kill -9 and a restart, once, and its run reports the reply', async () => {
    llm = await startFakeOpenAI();
    state = makeTempState('claw-hooks-crash-');
    writeRawConfig(state.paths.config, {
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
      agents: { defaults: { model: 'fake/m' } },
      hooks: { webhooks: { returnReply: true } },
    });
    // The first attempt hangs in the model call: the crash lands mid-turn, after the 202.
    llm.reply({ hang: true });
    child = await startGatewayChild(state);
    const token = readWebhookTokenSync(state.paths)!;
    const base = () => `http://127.0.0.1:${readGatewayInfoSync(state!.paths)!.port}`;
    const accepted = await fetch(`${base()}/hooks/agent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': 'nightly-report-2026-12-01' },
      body: JSON.stringify({ message: 'Summarise the nightly report', sessionKey: 'hook:nightly' }),
    });
    expect(accepted.status).toBe(202);
    const { runId } = (await accepted.json()) as { runId: string };
    await llm.waitForRequests(1);
    await child.kill9();
    child = undefined;

    llm.reply({ text: 'Nightly report: all green.' });
    child = await startGatewayChild(state);
    expect(readWebhookTokenSync(state.paths)).toBe(token);
    let run: { status: string; text?: string } = { status: 'accepted' };
    for (let i = 0; i < 300 && run.status === 'accepted'; i += 1) {
      const response = await fetch(`${base()}/hooks/runs/${runId}`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
      run = (await response.json()) as typeof run;
      if (run.status === 'accepted') await new Promise((r) => setTimeout(r, 50));
    }
    expect(run).toMatchObject({ status: 'replied', text: 'Nightly report: all green.' });
    // The same key again after the restart is still a duplicate, not a second run.
    const again = await fetch(`${base()}/hooks/agent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': 'nightly-report-2026-12-01' },
      body: JSON.stringify({ message: 'Summarise the nightly report', sessionKey: 'hook:nightly' }),
    });
    expect((await again.json()) as { status: string; runId: string }).toMatchObject({ status: 'duplicate', runId });
    expect(llm.requests).toHaveLength(2);
    // Across every transcript file: the message was appended once, not once per attempt.
    const dir = join(state.dir, 'agents', 'main', 'sessions');
    const transcripts = readdirSync(dir)
      .filter((name) => name.endsWith('.jsonl'))
      .map((name) => readFileSync(join(dir, name), 'utf8'))
      .join('\n');
    expect(transcripts.split('Summarise the nightly report').length - 1).toBe(1);
  });
});

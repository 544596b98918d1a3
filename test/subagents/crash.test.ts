import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { writeRawConfig } from '../../source/config/index.js';
import type { SubagentNode, TranscriptEntry } from '../../source/protocol/index.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import { CLI_ENTRY, startGatewayChild, type GatewayChild } from '../support/gateway-child.js';
import { makeTempState } from '../support/temp-state.js';
import { calledSince, isChildRequest, lastUserText, textOf, messagesOf, waitFor } from './subagents-harness.js';

const KILLS = 20;
const PARENT = 'agent:main:main';

const state = makeTempState();
let running: GatewayChild | undefined;
let llm: FakeLlmServer | undefined;
afterAll(async () => {
  await running?.kill9();
  await llm?.close();
  state.cleanup();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!existsSync(CLI_ENTRY))('kill -9 while children run and report', () => {
  it(`${KILLS} kills at random points: every child's completion reaches its parent exactly once`, async () => {
    llm = await startFakeOpenAI();
    llm.setDefault((request) => {
      // Children stream slowly so kills land mid-run, mid-outcome and mid-announce.
      if (isChildRequest(request)) {
        const label = /: "([^"]+)"\]/.exec(textOf(messagesOf(request).find((m) => textOf(m).includes('[subagent task from'))))?.[1];
        return { text: `finding ${label} ${'.'.repeat(40)}`, chunkSize: 8, delayMs: 15 };
      }
      const user = lastUserText(request);
      if (user.includes('[subagent_result]')) return { text: 'ack', delayMs: 10 };
      const batch = /batch (\d+)/.exec(user)?.[1];
      if (batch && !calledSince(request, 'sessions_spawn'))
        return { toolCalls: [1, 2, 3].map((i) => ({ name: 'sessions_spawn', arguments: { task: `part ${i}`, label: `b${batch}-${i}` } })) };
      return { text: 'spawned' };
    });
    writeRawConfig(state.paths.config, {
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
      agents: { defaults: { model: 'fake/m', heartbeat: { every: '0' }, subagents: { maxChildrenPerAgent: 50 } } },
      queue: { debounceMs: 20 },
    });
    const started = Date.now();
    for (let kill = 0; kill < KILLS; kill += 1) {
      running = await startGatewayChild(state);
      if (kill % 3 === 0) {
        const client = await running.connect();
        void client.request('chat.send', { sessionKey: PARENT, text: `batch ${kill}`, idempotencyKey: `batch-${kill}` }).catch(() => undefined);
      }
      await sleep(30 + Math.floor(Math.random() * 300));
      await running.kill9();
      running = undefined;
    }
    const killsMs = Date.now() - started;

    running = await startGatewayChild(state);
    const client = await running.connect();
    const nodes = await waitFor(
      'every child to finish and its completion to be delivered',
      async () => {
        const { nodes } = (await client.request('subagents.list', {})) as { nodes: SubagentNode[] };
        const lanes = (await client.request('sessions.get', { key: PARENT }).catch(() => undefined)) as
          | { session?: { running?: boolean; queued?: number } }
          | undefined;
        const idle = lanes?.session && !lanes.session.running && (lanes.session.queued ?? 0) === 0;
        return nodes.length > 0 && idle && nodes.every((n) => n.delivery === 'delivered' || n.delivery === 'skipped') ? nodes : undefined;
      },
      90_000,
    );
    const history = (await client.request('sessions.history', { key: PARENT, limit: 1000 })) as { entries: TranscriptEntry[] };
    await running.stop();
    running = undefined;

    const announced = history.entries.flatMap((e) =>
      e.type === 'message' && e.role === 'user' && e.meta?.messageId?.startsWith('subagent_result:') ? [e.meta.messageId] : [],
    );
    // No announce message twice, and every child in exactly one.
    expect(new Set(announced).size).toBe(announced.length);
    const carried = announced.flatMap((id) => id.slice('subagent_result:'.length).split('+'));
    expect(carried.sort()).toEqual(nodes.map((n) => n.runId).sort());
    for (const node of nodes) expect(['done', 'failed']).toContain(node.status);
    expect(nodes.length).toBeGreaterThanOrEqual(3);
    console.info(`subagents crash test: ${KILLS} kills in ${killsMs} ms, ${nodes.length} children, ${announced.length} announces`);
  }, 300_000);
});

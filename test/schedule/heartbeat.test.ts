import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayClient } from '../../source/client/index.js';
import type { OutboundReply } from '../../source/core/index.js';
import type { ChatEventPayload, HeartbeatEventPayload, ReplyRoute } from '../../source/protocol/index.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { ManualClock } from '../support/manual-clock.js';
import { describeStatus } from '../../source/cli/commands/status.js';
import { quiesce } from './schedule-harness.js';

const PAGER: ReplyRoute = { channel: 'pager', peer: { kind: 'direct', id: 'ops' } };

interface Rig {
  gateway: TestGateway;
  llm: FakeLlmServer;
  clock: ManualClock;
  client: GatewayClient;
  pager: OutboundReply[];
  beats: HeartbeatEventPayload[];
  chat: ChatEventPayload[];
  writeHeartbeat(text: string): void;
  /** `heartbeat.now`, then the 250 ms coalescing window, then whatever the run does. */
  beat(): Promise<void>;
}

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.gateway.stop();
  await rig?.llm.close();
  rig = undefined;
});

async function startRig(heartbeat: Record<string, unknown> = {}): Promise<Rig> {
  const llm = await startFakeOpenAI();
  const clock = new ManualClock(Date.UTC(2026, 0, 5, 12));
  const gateway = await startTestGateway({
    config: {
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
      agents: { defaults: { model: 'fake/m', heartbeat: { target: PAGER, ...heartbeat } } },
    },
    core: { clock },
  });
  const pager: OutboundReply[] = [];
  gateway.core.outbound.register('pager', {
    deliver: async (_route, reply) => {
      pager.push(reply);
      return { delivered: true, messageId: `pager-${pager.length}` };
    },
  });
  const client = await gateway.connect();
  const beats: HeartbeatEventPayload[] = [];
  const chat: ChatEventPayload[] = [];
  client.on('heartbeat', (payload) => beats.push(payload));
  client.on('chat', (payload) => chat.push(payload));
  const workspace = gateway.core.agent.workspaceDir('main');
  const settle = async (): Promise<void> => {
    await quiesce(gateway.core);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await quiesce(gateway.core);
  };
  return {
    gateway,
    llm,
    clock,
    client,
    pager,
    beats,
    chat,
    writeHeartbeat(text) {
      mkdirSync(workspace, { recursive: true });
      writeFileSync(join(workspace, 'HEARTBEAT.md'), text);
    },
    async beat() {
      await client.request('heartbeat.now', {});
      clock.advance(250);
      await settle();
    },
  };
}

const CHECKLIST = '# Heartbeat\n\n- Tell me when the build is red.\n';

describe('heartbeat', () => {
  it('makes no model call when HEARTBEAT.md is missing, empty or only headings and comments', async () => {
    rig = await startRig();
    await rig.beat();
    rig.writeHeartbeat('');
    await rig.beat();
    rig.writeHeartbeat('# Heartbeat\n\n<!-- add checks here -->\n## Later\n');
    rig.clock.advance(30 * 60_000);
    await quiesce(rig.gateway.core);
    await rig.beat();
    // An OpenClaw-style file: front matter and headings only.
    rig.writeHeartbeat('---\nsummary: periodic checks\nread_when:\n  - heartbeat\n---\n# Heartbeat\n\n## Checks\n');
    await rig.beat();
    expect(rig.llm.requests).toHaveLength(0);
    const skipped = rig.beats.filter((b) => b.phase === 'skipped').map((b) => `${b.trigger}: ${b.reason}`);
    expect(skipped).toEqual([
      'manual: HEARTBEAT.md is missing',
      'manual: HEARTBEAT.md is empty (only front matter, headings or comments)',
      'interval: HEARTBEAT.md is empty (only front matter, headings or comments)',
      'manual: HEARTBEAT.md is empty (only front matter, headings or comments)',
      'manual: HEARTBEAT.md is empty (only front matter, headings or comments)',
    ]);
  });

  it('keeps HEARTBEAT_OK variants and heartbeat_respond {notify:false} away from channels; an alert goes out', async () => {
    rig = await startRig();
    rig.writeHeartbeat(CHECKLIST);
    const quietReplies = ['HEARTBEAT_OK', '**HEARTBEAT_OK**', 'HEARTBEAT_OK — all clear, nothing to report.', 'Checked the build: green. HEARTBEAT_OK'];
    for (const text of quietReplies) {
      rig.llm.reply({ text });
      await rig.beat();
    }
    rig.llm.reply({ toolCalls: [{ name: 'heartbeat_respond', arguments: { notify: false } }] }, { text: 'Nothing new today, I checked everything in detail.' });
    await rig.beat();
    expect(rig.llm.requests).toHaveLength(quietReplies.length + 2);
    expect(rig.pager).toEqual([]);
    expect(rig.beats.filter((b) => b.phase === 'finished').map((b) => b.outcome)).toEqual(new Array(quietReplies.length + 1).fill('quiet'));
    expect(rig.beats.some((b) => b.phase === 'alert')).toBe(false);

    rig.llm.reply({ text: 'The build is red since 11:40 (main, test job).' });
    await rig.beat();
    expect(rig.pager.map((r) => r.text)).toEqual(['The build is red since 11:40 (main, test job).']);
    const alert = rig.beats.find((b) => b.phase === 'alert')!;
    expect(alert).toMatchObject({ outcome: 'alerted', text: 'The build is red since 11:40 (main, test job).', trigger: 'manual' });
    // Every heartbeat run is announced in the schedule events; none of them streams to a client as chat.
    const runIds = new Set(rig.beats.filter((b) => b.phase === 'started').map((b) => b.runId));
    expect(runIds.size).toBe(quietReplies.length + 2);
    expect(rig.chat).toEqual([]);
  });

  it('defers while the session is busy and runs once after the turn ends', async () => {
    rig = await startRig();
    rig.writeHeartbeat(CHECKLIST);
    rig.llm.reply({ text: 'a long answer for the user', delayMs: 150 }, { text: 'HEARTBEAT_OK' });
    await rig.client.request('chat.send', { sessionKey: 'agent:main:main', text: 'hello' });
    await rig.llm.waitForRequests(1);
    await rig.client.request('heartbeat.now', {});
    await rig.client.request('heartbeat.now', {});
    rig.clock.advance(250);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(rig.beats.filter((b) => b.phase === 'skipped').map((b) => b.outcome)).toEqual(['deferred']);
    for (let i = 0; i < 200 && rig.gateway.core.lanes.runningCount() > 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    rig.clock.advance(250);
    await quiesce(rig.gateway.core);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await quiesce(rig.gateway.core);
    expect(rig.llm.requests).toHaveLength(2);
    expect(rig.beats.filter((b) => b.phase === 'finished').map((b) => b.outcome)).toEqual(['quiet']);
  });

  it('stops for the day when the token budget is spent, and says so once', async () => {
    rig = await startRig({ dailyTokenBudget: 100, every: '48h' });
    rig.writeHeartbeat(CHECKLIST);
    rig.llm.reply({ text: 'HEARTBEAT_OK', usage: { input: 90, output: 20 } });
    await rig.beat();
    await rig.beat();
    await rig.beat();
    expect(rig.llm.requests).toHaveLength(1);
    expect(rig.beats.filter((b) => b.phase === 'budget')).toHaveLength(1);
    expect(rig.beats.filter((b) => b.phase === 'skipped').map((b) => b.reason)).toEqual([
      'the daily token budget is spent (110 of 100)',
      'the daily token budget is spent (110 of 100)',
    ]);
    const overview = await rig.client.request('schedule.list', {});
    expect(overview.heartbeats[0]).toMatchObject({ agentId: 'main', tokensToday: 110, dailyTokenBudget: 100 });
    expect(overview.notices.join('\n')).toMatch(/stopped for today: it spent 110 of its 100 token budget/);
    const health = await rig.client.request('health', {});
    expect(JSON.stringify(health)).toMatch(/stopped for today/);
    // `claw status` says it too, with the heartbeat's state.
    const printed = describeStatus({ running: true, source: 'rpc', status: await rig.client.request('status', {}) }, rig.gateway.state.dir);
    expect(printed).toMatch(/heartbeat main: every 2d0h, next at 20\d\d-\d\d-\d\d \d\d:\d\d UTC; last skipped \(the daily token budget is spent/);
    expect(printed).toMatch(/notice +Heartbeat of agent "main" stopped for today/);
    // The next day the budget is fresh.
    rig.clock.advance(24 * 60 * 60_000);
    await quiesce(rig.gateway.core);
    rig.llm.reply({ text: 'HEARTBEAT_OK', usage: { input: 10, output: 5 } });
    const before = rig.llm.requests.length;
    await rig.beat();
    expect(rig.llm.requests.length).toBeGreaterThan(before);
  });
});

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayClient } from '../../source/client/index.js';
import type { ChatEventPayload, HeartbeatEventPayload, PayloadOf } from '../../source/protocol/index.js';
import { entriesToItems } from '../../source/tui/store/history.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { ManualClock } from '../support/manual-clock.js';
import { quiesce } from './schedule-harness.js';

const MAIN = 'agent:main:main';
const CHECKLIST = '# Heartbeat\n\n- Tell me when the build is red.\n';

interface Rig {
  gateway: TestGateway;
  llm: FakeLlmServer;
  clock: ManualClock;
  client: GatewayClient;
  beats: HeartbeatEventPayload[];
  chat: ChatEventPayload[];
  accepted: Array<PayloadOf<'message.accepted'>>;
  agentRuns: Set<string>;
  beat(): Promise<void>;
  say(text: string): Promise<void>;
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
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {}, cheap: {} } } } },
      agents: { defaults: { model: 'fake/m', heartbeat: { target: 'last', ...heartbeat } } },
    },
    core: { clock },
  });
  const client = await gateway.connect();
  const beats: HeartbeatEventPayload[] = [];
  const chat: ChatEventPayload[] = [];
  const accepted: Array<PayloadOf<'message.accepted'>> = [];
  const agentRuns = new Set<string>();
  client.on('heartbeat', (payload) => beats.push(payload));
  client.on('chat', (payload) => chat.push(payload));
  client.on('message.accepted', (payload) => accepted.push(payload));
  client.on('agent', (payload) => agentRuns.add(payload.runId));
  const workspace = gateway.core.agent.workspaceDir('main');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'HEARTBEAT.md'), CHECKLIST);
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
    beats,
    chat,
    accepted,
    agentRuns,
    async beat() {
      await client.request('heartbeat.now', {});
      clock.advance(250);
      await settle();
    },
    async say(text) {
      await client.request('chat.send', { sessionKey: MAIN, text });
      clock.advance(2_000);
      await settle();
    },
  };
}

function contents(messages: unknown): string {
  return JSON.stringify(messages);
}

describe('background runs (heartbeat) in the main session', () => {
  it('keep quiet runs out of chat, history and later prompts; an alert shows once, as the only trace', async () => {
    rig = await startRig();
    rig.llm.reply({ text: 'hi there' });
    await rig.say('hello');
    rig.llm.reply({ text: 'HEARTBEAT_OK' });
    await rig.beat();
    rig.llm.reply({ text: 'The build is red since 11:40.' });
    await rig.beat();
    rig.llm.reply({ text: 'The test job on main fails.' });
    await rig.say('what is red?');

    expect(rig.beats.filter((b) => b.phase === 'finished').map((b) => b.outcome)).toEqual(['quiet', 'alerted']);
    const heartbeatRuns = new Set(rig.beats.filter((b) => b.phase === 'started').map((b) => b.runId!));
    expect(heartbeatRuns.size).toBe(2);
    // Live: no stream, tool line or lifecycle of a heartbeat run reaches a client, nor its prompt as a user line.
    for (const runId of heartbeatRuns) {
      expect(rig.chat.some((e) => e.runId === runId)).toBe(false);
      expect(rig.agentRuns.has(runId)).toBe(false);
    }
    expect(rig.accepted.map((a) => a.text)).toEqual(['hello', 'what is red?']);
    const alerts = rig.chat.filter((e) => e.runId.endsWith(':announce'));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ state: 'final', text: 'The build is red since 11:40.', sessionKey: MAIN });

    // History (what a client loads) has the alert as one entry and no heartbeat prompt or reply.
    const history = await rig.client.request('sessions.history', { key: MAIN });
    const items = entriesToItems(history.entries).map((item) => `${item.kind}: ${'text' in item ? item.text : ''}`);
    expect(items).toEqual([
      'user: hello',
      'assistant: hi there',
      'assistant: The build is red since 11:40.',
      'user: what is red?',
      'assistant: The test job on main fails.',
    ]);
    expect(alerts[0]!.state === 'final' && alerts[0]!.entryId).toBe(history.entries.find((e) => e.type === 'custom' && e.customType === 'run_notice')?.id);

    // The model: the quiet run is gone from later prompts, the alerted one stays (the user may ask about it).
    const last = contents(rig.llm.requests.at(-1)!.body.messages);
    expect(last).not.toContain('"content":"HEARTBEAT_OK"');
    expect(last).toContain('"role":"assistant","content":"The build is red since 11:40."');
    expect(last.match(/Heartbeat: read the HEARTBEAT.md checklist/g)).toHaveLength(1);
  });

  it('runs with heartbeat.model while the session keeps its own, and skips with the reason when that model is unknown', async () => {
    rig = await startRig({ model: 'fake/cheap' });
    rig.llm.reply({ text: 'HEARTBEAT_OK' }, { text: 'hello back' });
    await rig.beat();
    await rig.say('hello');
    expect(rig.llm.requests.map((r) => r.body.model)).toEqual(['cheap', 'm']);

    const config = JSON.parse(readFileSync(rig.gateway.state.paths.config, 'utf8')) as { agents: { defaults: { heartbeat: { model: string } } } };
    config.agents.defaults.heartbeat.model = 'nope/x';
    writeFileSync(rig.gateway.state.paths.config, JSON.stringify(config));
    await rig.gateway.core.config.reload();
    await rig.beat();
    expect(rig.llm.requests).toHaveLength(2);
    expect(rig.beats.at(-1)).toMatchObject({ phase: 'skipped', outcome: 'skipped' });
    expect(rig.beats.at(-1)!.reason).toMatch(/heartbeat\.model "nope\/x" cannot be used/);
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { journalRecord, type JournalRecord } from '../../source/queue/index.js';
import { loadTranscriptSync } from '../../source/sessions/index.js';
import { InstantRunner } from '../support/scripted-runner.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';

let gateway: TestGateway | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

const SESSIONS = 50;
const MESSAGES = 1000;
const CLIENTS = 5;

describe('lanes under load through a real gateway', () => {
  it('1,000 messages over 50 sessions from 5 clients: order kept, cap kept, one outcome each', async () => {
    const runner = new InstantRunner();
    gateway = await startTestGateway({ core: { runner }, config: { queue: { mode: 'collect', debounceMs: 0 } } });
    const clients = await Promise.all(Array.from({ length: CLIENTS }, () => gateway!.connect()));
    const terminal = new Map<string, number>();
    clients[0]!.on('chat', (p) => {
      if (p.state !== 'delta') terminal.set(p.runId, (terminal.get(p.runId) ?? 0) + 1);
    });
    clients[0]!.on('agent', (p) => {
      if (p.stream === 'lifecycle' && p.detail?.startsWith('merged')) terminal.set(p.runId, (terminal.get(p.runId) ?? 0) + 1);
    });

    const sent = new Map<string, string[]>();
    const requests = Array.from({ length: MESSAGES }, (_, i) => {
      const session = i % SESSIONS;
      const key = `agent:main:load:direct:s${session}`;
      const text = `s${session}-n${Math.floor(i / SESSIONS)}`;
      sent.set(key, [...(sent.get(key) ?? []), text]);
      const client = clients[session % CLIENTS]!;
      return client.request('chat.send', { sessionKey: key, text, idempotencyKey: text, ...(session % 2 === 1 ? { queueMode: 'followup' as const } : {}) });
    });
    const acks = await Promise.all(requests);
    expect(acks.every((a) => a.status === 'started' || a.status === 'queued')).toBe(true);

    await vi.waitFor(() => expect(terminal.size).toBe(MESSAGES), { timeout: 60_000, interval: 50 });
    expect([...terminal.values()].every((count) => count === 1)).toBe(true);
    expect(runner.maxActive).toBeLessThanOrEqual(4);
    expect(runner.maxActive).toBeGreaterThan(1);

    await gateway.server.stop('test done');
    const records = readFileSync(join(gateway.state.dir, 'queue', 'inbound.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => journalRecord.parse(JSON.parse(l)) as JournalRecord);
    const accepted = records.filter((r) => r.t === 'accepted');
    const outcomes = records.filter((r) => r.t === 'outcome');
    expect(accepted).toHaveLength(MESSAGES);
    expect(outcomes).toHaveLength(MESSAGES);
    expect(new Set(outcomes.map((o) => o.seq)).size).toBe(MESSAGES);
    expect(outcomes.every((o) => o.status === 'replied')).toBe(true);

    const store = JSON.parse(readFileSync(join(gateway.state.paths.sessionsDir('main'), 'sessions.json'), 'utf8'));
    for (const [key, texts] of sent) {
      const { sessionId } = store.sessions[key];
      const { entries } = loadTranscriptSync(join(gateway.state.paths.sessionsDir('main'), `${sessionId}.jsonl`));
      const users = entries.flatMap((e) => (e.type === 'message' && e.role === 'user' ? [e.content] : []));
      expect(users, key).toEqual(texts);
    }
  }, 180_000);
});

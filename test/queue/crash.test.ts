import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { writeRawConfig } from '../../source/config/index.js';
import { loadTranscriptSync } from '../../source/sessions/index.js';
import { CLI_ENTRY, startGatewayChild, type GatewayChild } from '../support/gateway-child.js';
import { makeTempState } from '../support/temp-state.js';
import { readJournal } from './crash-history.js';

const ROUNDS = 20;
const BURST = 30;
const SESSIONS = 5;

const state = makeTempState();
let running: GatewayChild | undefined;
afterAll(async () => {
  await running?.kill9();
  state.cleanup();
});

const journal = () => readJournal(join(state.dir, 'queue', 'inbound.jsonl'));

describe.skipIf(!existsSync(CLI_ENTRY))('kill -9 during a burst', () => {
  it(`${ROUNDS} crashes and restarts: every accepted message finishes exactly once and every transcript loads`, async () => {
    writeRawConfig(state.paths.config, { queue: { mode: 'followup', cap: 1000 } });
    const env = { CLAW_TEST_RUNNER: 'echo' };
    const acked = new Set<string>();
    const unacked = new Set<string>();
    let next = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      running = await startGatewayChild(state, env);
      const client = await running.connect();
      const keys = [...unacked];
      for (let i = 0; i < BURST; i += 1) keys.push(`m${(next += 1)}`);
      const killAfter = Math.floor(Math.random() * BURST);
      let acks = 0;
      const killing = new Promise<void>((resolve) => {
        const send = (key: string): void => {
          const session = Number(key.slice(1)) % SESSIONS;
          client.request('chat.send', { sessionKey: `agent:main:crash:direct:s${session}`, text: key, idempotencyKey: key }).then(
            () => {
              acked.add(key);
              unacked.delete(key);
              acks += 1;
              if (acks === killAfter) resolve();
            },
            () => unacked.add(key),
          );
        };
        for (const key of keys) {
          unacked.add(key);
          send(key);
        }
        if (killAfter === 0) resolve();
      });
      await killing;
      await running.kill9();
      running = undefined;
    }
    // A final clean run: resend what was never acknowledged, let everything finish, stop gracefully.
    running = await startGatewayChild(state, env);
    const client = await running.connect();
    for (const key of [...unacked]) {
      const session = Number(key.slice(1)) % SESSIONS;
      await client.request('chat.send', { sessionKey: `agent:main:crash:direct:s${session}`, text: key, idempotencyKey: key });
      acked.add(key);
    }
    await vi.waitFor(
      () => {
        const { accepted, outcomes } = journal();
        expect(outcomes.length).toBeGreaterThanOrEqual(accepted.length);
      },
      { timeout: 60_000, interval: 100 },
    );
    await running.stop();
    running = undefined;

    const { accepted, outcomes } = journal();
    const acceptedIds = accepted.map((r) => r.messageId);
    expect(new Set(acceptedIds).size).toBe(acceptedIds.length);
    for (const key of acked) expect(acceptedIds, key).toContain(key);
    const outcomeCount = new Map<number, number>();
    for (const outcome of outcomes) outcomeCount.set(outcome.seq, (outcomeCount.get(outcome.seq) ?? 0) + 1);
    for (const record of accepted) expect(outcomeCount.get(record.seq), record.messageId).toBe(1);
    expect(outcomes.filter((o) => o.status !== 'replied')).toEqual([]);

    const dir = state.paths.sessionsDir('main');
    const replies = new Map<string, number>();
    const users = new Map<string, number>();
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.jsonl'))) {
      const { entries } = loadTranscriptSync(join(dir, name));
      for (const entry of entries) {
        if (entry.type !== 'message') continue;
        if (entry.role === 'user') users.set(entry.content, (users.get(entry.content) ?? 0) + 1);
        if (entry.role === 'assistant') {
          const text = entry.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
          replies.set(text, (replies.get(text) ?? 0) + 1);
        }
      }
    }
    for (const id of acceptedIds) {
      expect(users.get(id), `user ${id}`).toBe(1);
      expect(replies.get(`echo: ${id}`), `reply ${id}`).toBe(1);
    }
  }, 900_000);
});

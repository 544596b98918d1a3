import { describe, expect, it } from 'vitest';
import {
  cronToolArgs,
  isQuietReply,
  loadCron,
  nextSlotAfter,
  normaliseCronArgs,
  parseDuration,
  readHeartbeatFile,
  slotsBetween,
  staggerOffset,
  STAGGER_WINDOW_MS,
} from '../../source/schedule/index.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('quiet heartbeat replies', () => {
  it('drops HEARTBEAT_OK at the start or end with up to 300 other characters, and nothing else', () => {
    for (const text of ['HEARTBEAT_OK', '  heartbeat_ok.', '`HEARTBEAT_OK`', 'HEARTBEAT_OK!', `All quiet. ${'x'.repeat(280)} HEARTBEAT_OK`, 'NO_REPLY', '']) {
      expect(isQuietReply(text), text).toBe(true);
    }
    for (const text of [`HEARTBEAT_OK ${'x'.repeat(301)}`, 'The build is red.', 'I would say HEARTBEAT_OK but the build is red', 'HEARTBEAT_OKAY?']) {
      expect(isQuietReply(text), text).toBe(false);
    }
  });
});

describe('HEARTBEAT.md pre-check', () => {
  it('treats headings, comments and blank lines as empty', () => {
    const dir = mkdtempSync(join(tmpdir(), 'claw-hb-'));
    try {
      expect(readHeartbeatFile(dir)).toEqual({ ok: false, reason: 'HEARTBEAT.md is missing' });
      writeFileSync(join(dir, 'HEARTBEAT.md'), '# Title\n<!--\n- not yet\n-->\n\n## Sub\n');
      expect(readHeartbeatFile(dir).ok).toBe(false);
      writeFileSync(join(dir, 'HEARTBEAT.md'), '# Title\n- check the build\n');
      expect(readHeartbeatFile(dir)).toEqual({ ok: true, text: '# Title\n- check the build' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('slots', () => {
  const job = (schedule: never, anchorAt = 0) => ({ id: 'job-1', schedule, anchorAt });
  it('staggers top-of-hour jobs by a fixed offset per job inside the window', async () => {
    await loadCron();
    const offset = staggerOffset('job-1');
    expect(offset).toBeGreaterThanOrEqual(0);
    expect(offset).toBeLessThan(STAGGER_WINDOW_MS);
    expect(staggerOffset('job-1')).toBe(offset);
    const hour = Date.UTC(2026, 0, 1, 10);
    expect(nextSlotAfter(job({ kind: 'cron', expr: '0 * * * *' } as never), hour - 1)).toBe(hour + offset);
    expect(nextSlotAfter(job({ kind: 'cron', expr: '0 * * * *', exact: true } as never), hour - 1)).toBe(hour);
    expect(nextSlotAfter(job({ kind: 'cron', expr: '15 * * * *' } as never), hour)).toBe(hour + 15 * 60_000);
  });

  it('counts every slots from the anchor and lists the slots a downtime covered', () => {
    const every = job({ kind: 'every', every: '90s' } as never, 1000);
    expect(nextSlotAfter(every, 0)).toBe(91_000);
    expect(nextSlotAfter(every, 91_000)).toBe(181_000);
    expect(slotsBetween(every, 0, 300_000)).toEqual([91_000, 181_000, 271_000]);
    expect(parseDuration('1.5h')).toBe(5_400_000);
    expect(parseDuration('soon')).toBeUndefined();
  });
});

describe('cron tool arguments', () => {
  it('normalises the flattened shapes models send into the strict one', () => {
    const cases: Array<[unknown, unknown]> = [
      [
        { action: 'add', name: 'd', cron: '0 8 * * *', timezone: 'Europe/Berlin', message: 'm' },
        { action: 'add', job: { name: 'd', schedule: { kind: 'cron', expr: '0 8 * * *', tz: 'Europe/Berlin' }, payload: { kind: 'agentTurn', message: 'm' } } },
      ],
      [
        { action: 'ADD', job: { name: 'w', every: '2h', text: 'drink', deliver: 'main' } },
        {
          action: 'add',
          job: {
            name: 'w',
            schedule: { kind: 'every', every: '2h' },
            payload: { kind: 'systemEvent', text: 'drink' },
            delivery: { mode: 'announce', to: 'main' },
          },
        },
      ],
      [
        { action: 'add', name: 'a', schedule: '2026-05-01T08:00:00Z', payload: 'ping' },
        { action: 'add', job: { name: 'a', schedule: { kind: 'at', at: '2026-05-01T08:00:00Z' }, payload: { kind: 'agentTurn', message: 'ping' } } },
      ],
      [
        { action: 'update', jobId: 'x-1', enabled: false },
        { action: 'update', id: 'x-1', patch: { enabled: false } },
      ],
      [
        { action: 'runs', job_id: 'x-1', limit: 5 },
        { action: 'runs', id: 'x-1', limit: 5 },
      ],
    ];
    for (const [input, expected] of cases) {
      const normalised = normaliseCronArgs(input);
      expect(normalised, JSON.stringify(input)).toEqual(expected);
      expect(cronToolArgs.safeParse(normalised).success).toBe(true);
    }
    expect(cronToolArgs.safeParse(normaliseCronArgs({ action: 'add', name: 'n', when: 'later' })).success).toBe(false);
  });
});

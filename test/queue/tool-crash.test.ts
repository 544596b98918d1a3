import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLI_ENTRY } from '../support/gateway-child.js';
import { runCrashHistory } from './crash-history.js';

const KILLS = 50;

describe.skipIf(!existsSync(CLI_ENTRY))('kill -9 during tool turns and collect batches', () => {
  it(`${KILLS} kills: every acknowledged message gets exactly one assistant outcome, none twice`, async () => {
    const report = await runCrashHistory({ kills: KILLS });
    expect(report.violations).toEqual([]);
    expect(report.kills).toBe(KILLS);
    expect(report.killsDuringTool).toBeGreaterThanOrEqual(KILLS / 2);
    expect(report.acknowledged).toBeGreaterThan(KILLS);
    // The history really exercised merging: some turns answered several messages.
    expect(report.batchedReplies).toBeGreaterThan(0);
  }, 900_000);
});

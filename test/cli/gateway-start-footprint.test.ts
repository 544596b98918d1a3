import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayChild } from '../support/gateway-child.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { assertBuilt } from './cli-process.js';

const preload = fileURLToPath(new URL('../support/start-footprint-preload.cjs', import.meta.url));

interface Footprint {
  atListening: number;
  atExit: number;
  builtins: string[];
}

/** One start of the shipped gateway, a client's hello and one request, and a drain. */
async function measuredStart(state: TempState): Promise<Footprint> {
  const out = join(state.dir, 'start-footprint.json');
  const gateway = await startGatewayChild(state, { NODE_OPTIONS: `--require ${preload}`, CLAW_TEST_START_FOOTPRINT: out });
  const client = await gateway.connect();
  await client.request('sessions.list', {});
  await gateway.stop();
  return JSON.parse(readFileSync(out, 'utf8')) as Footprint;
}

describe('what the gateway does before it listens', () => {
  let state: TempState | undefined;
  beforeAll(assertBuilt);
  afterEach(() => state?.cleanup());

  // Each module-level schema built at import cost the gateway's start (and the
  // TUI's) ~10 µs a node plus the garbage it leaves; ~1,000 of them were ~18 ms
  // of a ~100 ms start, and zod itself, loaded for them, ~4 ms more. Built-ins
  // the daemon needs only later cost ~1 ms each.
  it('builds no zod schema and loads no built-in it needs only later', async () => {
    state = makeTempState();
    await measuredStart(state);
    // The second start reads what the first wrote (jobs, sessions, tokens), as every later start does.
    const { atListening, atExit, builtins } = await measuredStart(state);
    expect(atListening).toBe(0);
    // The count is live: validating the client's frames built the protocol's schemas.
    expect(atExit - atListening).toBeGreaterThan(50);
    expect(builtins).toContain('crypto');
    for (const later of ['child_process', 'dns/promises', 'fs/promises', 'perf_hooks', 'readline', 'worker_threads']) expect(builtins).not.toContain(later);
  });
});

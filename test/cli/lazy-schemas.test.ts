import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayChild } from '../support/gateway-child.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { assertBuilt } from './cli-process.js';

const preload = fileURLToPath(new URL('../support/zod-nodes-preload.cjs', import.meta.url));

/** One start of the shipped gateway, a client's hello, and a drain: the zod nodes built by listening and by exit. */
async function countedStart(state: TempState): Promise<{ atListening: number; atExit: number }> {
  const out = join(state.dir, 'zod-nodes.json');
  const gateway = await startGatewayChild(state, { NODE_OPTIONS: `--require ${preload}`, CLAW_TEST_ZOD_NODES: out });
  const client = await gateway.connect();
  await client.request('sessions.list', {});
  await gateway.stop();
  return JSON.parse(readFileSync(out, 'utf8')) as { atListening: number; atExit: number };
}

describe('zod schemas on the way to ready', () => {
  let state: TempState | undefined;
  beforeAll(assertBuilt);
  afterEach(() => state?.cleanup());

  // Each module-level schema built at import cost the gateway's start (and the
  // TUI's) ~10 µs a node plus the garbage it leaves; ~1,000 of them were ~18 ms
  // of a ~100 ms start. They are built on first use (lazySchema), so a start
  // builds only z.lazy's own wrappers; a schema built at import shows here.
  it('the gateway builds its schemas on first use, not while it starts', async () => {
    state = makeTempState();
    await countedStart(state);
    // The second start reads what the first wrote (jobs, sessions, tokens), as every later start does.
    const { atListening, atExit } = await countedStart(state);
    expect(atListening).toBeLessThan(60);
    // The count is live: validating the client's frames built the protocol's schemas.
    expect(atExit - atListening).toBeGreaterThan(50);
  });
});

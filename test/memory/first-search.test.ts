import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

let gateway: TestGateway | undefined;
let state: TempState | undefined;
afterEach(async () => {
  await gateway?.stop();
  state?.cleanup();
  gateway = undefined;
  state = undefined;
});

const start = (s: TempState) => startTestGateway({ state: s, config: { memory: { embeddings: { provider: 'none' } } }, core: {} });

describe('the first memory search after the gateway starts', () => {
  it('finds the notes, and notes edited while the gateway was stopped', async () => {
    state = makeTempState();
    const workspace = state.paths.workspace('main');
    mkdirSync(join(workspace, 'memory'), { recursive: true });
    writeFileSync(join(workspace, 'MEMORY.md'), '# Facts\n\nThe blue heron codeword is zephyr-42.\n');
    gateway = await start(state);
    let client = await gateway.connect();
    const first = await client.request('memory.search', { query: 'heron codeword' });
    expect(first.results[0]).toMatchObject({ path: 'MEMORY.md' });
    expect(first.results[0]?.snippet ?? JSON.stringify(first.results[0])).toContain('zephyr-42');

    await gateway.stop();
    writeFileSync(join(workspace, 'memory', '2026-12-07.md'), '# Today\n\nThe green kingfisher password is tango-7.\n');
    gateway = await start(state);
    client = await gateway.connect();
    const afterRestart = await client.request('memory.search', { query: 'kingfisher password' });
    expect(afterRestart.results[0]).toMatchObject({ path: 'memory/2026-12-07.md' });
  });
});

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../source/config/index.js';
import { SessionRegistry } from '../../source/sessions/index.js';
import { assertBuilt } from '../cli/cli-process.js';
import { startGatewayChild, type GatewayChild } from '../support/gateway-child.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

let gateway: GatewayChild | undefined;
let state: TempState | undefined;
let hooksDir: string | undefined;
afterEach(async () => {
  await gateway?.stop();
  state?.cleanup();
  if (hooksDir) rmSync(hooksDir, { recursive: true, force: true });
  gateway = undefined;
  state = undefined;
  hooksDir = undefined;
});

/**
 * A preload in the child that appends every file of dist/chunks/ it reads to a
 * log: the gateway's bundles are read by source/cli/code-cache.ts, each when
 * first required.
 */
function bundleLog(): { env: NodeJS.ProcessEnv; loaded(): string[] } {
  hooksDir = mkdtempSync(join(tmpdir(), 'claw-bundle-log-'));
  const log = join(hooksDir, 'loaded.txt');
  writeFileSync(log, '');
  writeFileSync(
    join(hooksDir, 'preload.cjs'),
    `const fs = require('node:fs');
const read = fs.readFileSync;
fs.readFileSync = function (path, ...rest) {
  if (typeof path === 'string' && path.includes('/dist/chunks/')) fs.appendFileSync(${JSON.stringify(log)}, path + '\\n');
  return read.call(this, path, ...rest);
};
`,
  );
  return {
    env: { NODE_OPTIONS: `--require=${join(hooksDir, 'preload.cjs')}` },
    loaded: () => readFileSync(log, 'utf8').split('\n').filter(Boolean),
  };
}

const chunk = (loaded: string[], name: string): string[] => loaded.filter((path) => path.split('/').pop()!.startsWith(name));

describe('packages the gateway loads on first use', () => {
  beforeAll(assertBuilt);

  it('flexsearch with the first search and croner with the first cron expression, neither by the start', async () => {
    state = makeTempState();
    const registry = new SessionRegistry({ paths: state.paths, config: configSchema.parse({}) });
    const session = await registry.open('agent:main:main');
    session.append({ type: 'message', role: 'user', content: 'remind me about the dentist' });
    await session.flush();
    await registry.close();
    const modules = bundleLog();
    gateway = await startGatewayChild(state, modules.env);

    const atReady = modules.loaded();
    expect(chunk(atReady, 'gateway-run.cjs')).toHaveLength(1);
    expect(chunk(atReady, 'vendor-flexsearch.cjs')).toEqual([]);
    expect(chunk(atReady, 'vendor-croner.cjs')).toEqual([]);

    const client = await gateway.connect();
    const found = await client.request('sessions.search', { query: 'dentist' });
    expect(found.hits.map((hit) => hit.snippet)).toEqual(['remind me about the dentist']);
    expect(chunk(modules.loaded(), 'vendor-flexsearch.cjs')).toHaveLength(1);
    expect(chunk(modules.loaded(), 'vendor-croner.cjs')).toEqual([]);

    const { job } = await client.request('cron.add', {
      job: { name: 'nightly', schedule: { kind: 'cron', expr: '0 3 * * *', exact: true }, payload: { kind: 'agentTurn', message: 'night' } },
    });
    const threeToday = new Date(job.createdAt).setUTCHours(3, 0, 0, 0);
    expect(job.state.nextRunAt).toBe(threeToday > job.createdAt ? threeToday : threeToday + 86_400_000);
    expect(chunk(modules.loaded(), 'vendor-croner.cjs')).toHaveLength(1);
  });
});

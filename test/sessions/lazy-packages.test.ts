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

/** Node's module hooks, preloaded into the child: every module it loads is appended to a log file. */
function moduleLog(): { env: NodeJS.ProcessEnv; loaded(): string[] } {
  hooksDir = mkdtempSync(join(tmpdir(), 'claw-module-log-'));
  const log = join(hooksDir, 'loaded.txt');
  writeFileSync(log, '');
  writeFileSync(
    join(hooksDir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(log)}, url + '\\n');
  return next(url, context);
}
`,
  );
  writeFileSync(join(hooksDir, 'register.mjs'), `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`);
  return {
    env: { NODE_OPTIONS: `--import=${join(hooksDir, 'register.mjs')}` },
    loaded: () => readFileSync(log, 'utf8').split('\n').filter(Boolean),
  };
}

const chunk = (loaded: string[], name: string): string[] => loaded.filter((url) => url.includes('/dist/chunks/') && url.split('/').pop()!.startsWith(name));

describe('packages the gateway loads on first use', () => {
  beforeAll(assertBuilt);

  it('flexsearch with the first search and croner with the first cron expression, neither by the start', async () => {
    state = makeTempState();
    const registry = new SessionRegistry({ paths: state.paths, config: configSchema.parse({}) });
    const session = await registry.open('agent:main:main');
    session.append({ type: 'message', role: 'user', content: 'remind me about the dentist' });
    await session.flush();
    await registry.close();
    const modules = moduleLog();
    gateway = await startGatewayChild(state, modules.env);

    const atReady = modules.loaded();
    expect(chunk(atReady, 'daemon-')).toHaveLength(1);
    expect(chunk(atReady, 'flexsearch')).toEqual([]);
    expect(chunk(atReady, 'croner')).toEqual([]);

    const client = await gateway.connect();
    const found = await client.request('sessions.search', { query: 'dentist' });
    expect(found.hits.map((hit) => hit.snippet)).toEqual(['remind me about the dentist']);
    expect(chunk(modules.loaded(), 'flexsearch')).toHaveLength(1);
    expect(chunk(modules.loaded(), 'croner')).toEqual([]);

    const { job } = await client.request('cron.add', {
      job: { name: 'nightly', schedule: { kind: 'cron', expr: '0 3 * * *', exact: true }, payload: { kind: 'agentTurn', message: 'night' } },
    });
    const threeToday = new Date(job.createdAt).setUTCHours(3, 0, 0, 0);
    expect(job.state.nextRunAt).toBe(threeToday > job.createdAt ? threeToday : threeToday + 86_400_000);
    expect(chunk(modules.loaded(), 'croner')).toHaveLength(1);
  });
});

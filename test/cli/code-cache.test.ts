import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runClawOk } from './cli-process.js';
import { startGatewayChild, type GatewayChild } from '../support/gateway-child.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

let state: TempState | undefined;
let gateway: GatewayChild | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
  state?.cleanup();
  state = undefined;
});

const warmLine = /background start-up done in \d+ ms/g;

function logText(s: TempState): string {
  const dir = s.paths.logs;
  return existsSync(dir)
    ? readdirSync(dir)
        .map((name) => readFileSync(join(dir, name), 'utf8'))
        .join('')
    : '';
}

/** Starts `claw gateway run` (the bin) and waits until its start-up work is done, which is when it saves the code cache. */
async function startWarm(s: TempState): Promise<GatewayChild> {
  const warmed = (): number => logText(s).match(warmLine)?.length ?? 0;
  const before = warmed();
  const child = await startGatewayChild(s);
  try {
    await expect.poll(warmed, { timeout: 10_000 }).toBe(before + 1);
  } catch (error) {
    // Not yet the test's `gateway`, so afterEach would not stop it.
    await child.stop();
    throw error;
  }
  return child;
}

function cacheFile(s: TempState, name: string): string {
  return join(s.dir, 'cache', 'code', `${name}.bin`);
}

describe('the gateway code cache', () => {
  beforeAll(assertBuilt);

  it('is written once the first start is done, private, and used as it is by the next start', async () => {
    state = makeTempState();
    gateway = await startWarm(state);
    const file = cacheFile(state, 'gateway-run');
    await expect.poll(() => existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(state.dir, 'cache', 'code')).mode & 0o777).toBe(0o700);
    expect(readFileSync(file, 'latin1').split('\n')[0]).toMatch(new RegExp(`^claw-code-cache [0-9a-f]{32} \\d+ \\d+ ${process.version} ${process.arch}$`));
    const written = statSync(file);
    // The bundled skills' front matter was parsed in the start-up work: yaml's bundle is cached with it.
    expect(existsSync(cacheFile(state, 'vendor-yaml'))).toBe(true);
    await gateway.stop();

    // Accepted by V8, so neither the second start's save nor its exit writes it again.
    gateway = await startWarm(state);
    await runClawOk(['status'], state.env);
    await gateway.stop();
    gateway = undefined;
    const after = statSync(file);
    expect([after.ino, after.mtimeMs, after.size]).toEqual([written.ino, written.mtimeMs, written.size]);
  }, 60_000);

  it('replaces a cache V8 refuses, or one made for another build, and starts as usual', async () => {
    state = makeTempState();
    gateway = await startWarm(state);
    await gateway.stop();
    const file = cacheFile(state, 'gateway-run');
    const [header] = readFileSync(file, 'latin1').split('\n');

    // The right header over bytes that are not V8's: V8 refuses them.
    writeFileSync(file, Buffer.concat([Buffer.from(`${header}\n`), Buffer.alloc(4096, 7)]));
    gateway = await startWarm(state);
    await runClawOk(['status'], state.env);
    await gateway.stop();
    let data = readFileSync(file);
    expect(data.subarray(0, header!.length + 1).toString('latin1')).toBe(`${header}\n`);
    expect(data.length).toBeGreaterThan(100_000);

    // Another build's cache (its content hash differs): never handed to V8, replaced.
    const otherBuild = header!.replace(/ [0-9a-f]{32} /, ` ${'0'.repeat(32)} `);
    writeFileSync(file, Buffer.concat([Buffer.from(`${otherBuild}\n`), data.subarray(header!.length + 1)]));
    gateway = await startWarm(state);
    await gateway.stop();
    gateway = undefined;
    data = readFileSync(file);
    expect(data.subarray(0, header!.length + 1).toString('latin1')).toBe(`${header}\n`);
  }, 90_000);

  it('caches a vendor bundle the gateway first requires after start-up when it exits', async () => {
    state = makeTempState();
    gateway = await startWarm(state);
    expect(existsSync(cacheFile(state, 'vendor-croner'))).toBe(false);
    // A cron expression is the first use of croner.
    await runClawOk(['cron', 'add', '--name', 'digest', '--cron', '0 8 * * 1-5', '--message', 'Summarise my inbox'], state.env);
    await gateway.stop();
    gateway = undefined;
    expect(readFileSync(cacheFile(state, 'vendor-croner'), 'latin1').startsWith('claw-code-cache ')).toBe(true);
  }, 60_000);
});

import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { assertBuilt, runClaw, runClawOk } from './cli-process.js';

let state: TempState;
const slow = { timeout: 180_000 };

beforeAll(assertBuilt);
beforeEach(() => {
  state = makeTempState();
});
afterEach(() => state.cleanup());

describe('claw config', () => {
  it('sets, gets and unsets keys in the real file, atomically', slow, async () => {
    expect((await runClawOk(['config', 'path'], state.env)).stdout).toBe(`${state.paths.config}\n`);

    expect(await runClaw(['config', 'set', 'gateway.port', '19001'], state.env)).toMatchObject({ code: 0, stdout: 'gateway.port = 19001\n' });
    expect(JSON.parse(readFileSync(state.paths.config, 'utf8'))).toEqual({ gateway: { port: 19001 } });
    expect((await runClawOk(['config', 'get', 'gateway.port'], state.env)).stdout).toBe('19001\n');
    expect((await runClawOk(['config', 'get', 'gateway.bind'], state.env)).stdout).toBe('127.0.0.1\n');

    const bad = await runClaw(['config', 'set', 'gateway.port', 'abc'], state.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('gateway.port');
    expect(bad.stderr).toMatch(/expected number/i);
    expect(bad.stderr).toContain('gateway.port = "abc" was refused');
    const unknown = await runClaw(['config', 'set', 'gateway.prot', '1'], state.env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('"gateway.prot" is not a config key. Did you mean gateway.port?');
    expect(JSON.parse(readFileSync(state.paths.config, 'utf8'))).toEqual({ gateway: { port: 19001 } });

    expect(await runClaw(['config', 'unset', 'gateway.port'], state.env)).toMatchObject({ code: 0, stdout: 'unset gateway.port\n' });
    expect((await runClawOk(['config', 'get', 'gateway.port'], state.env)).stdout).toBe('18789\n');
    expect(readdirSync(state.dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses a default model it does not know, listing the known ones, and keeps the file as it was', slow, async () => {
    await runClawOk(['config', 'set', 'agents.defaults.model', 'openai/gpt-4o-mini'], state.env);
    const refused = await runClaw(['config', 'set', 'agents.defaults.model', 'nope/x'], state.env);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('agents.defaults.model was not changed');
    expect(refused.stderr).toContain('Unknown provider "nope"');
    expect(refused.stderr).toMatch(/Known models: .*openai\/gpt-4o-mini/);
    expect(JSON.parse(readFileSync(state.paths.config, 'utf8'))).toEqual({ agents: { defaults: { model: 'openai/gpt-4o-mini' } } });
  });

  it('explains bad usage and a broken file', slow, async () => {
    const usage = await runClaw(['config', 'frobnicate'], state.env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: claw config');
    await runClaw(['config', 'set', 'gateway.bind', '127.0.0.1'], state.env);
    const broken = readFileSync(state.paths.config, 'utf8').replace('}', '');
    writeFileSync(state.paths.config, broken);
    const get = await runClaw(['config', 'get'], state.env);
    expect(get.code).toBe(2);
    expect(get.stderr).toContain(`Fix the syntax of ${state.paths.config}`);
  });
});

describe('claw argv', () => {
  it('prints the version and the generated help, and refuses unknown commands', slow, async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect((await runClaw(['--version'], state.env)).stdout.trim()).toBe(pkg.version);
    const help = await runClaw(['--help'], state.env);
    expect(help.stdout).toMatch(/^ {2}gateway +run, start, stop or restart/m);
    const unknown = await runClaw(['frobnicate'], state.env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
  });
});

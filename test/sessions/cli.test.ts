import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_ENTRY, startGatewayChild, type GatewayChild } from '../support/gateway-child.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

const exec = promisify(execFile);
let state: TempState | undefined;
let gateway: GatewayChild | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
  state?.cleanup();
  state = undefined;
});

async function claw(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [CLI_ENTRY, ...args], { env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe.skipIf(!existsSync(CLI_ENTRY))('claw message send and claw sessions', () => {
  it('prints the reply, then lists the session', async () => {
    state = makeTempState();
    gateway = await startGatewayChild(state, { CLAW_TEST_RUNNER: 'echo' });
    const sent = await claw(['message', 'send', '--session', 'agent:main:main', 'hello', 'there'], state.env);
    expect(sent).toMatchObject({ code: 0, stdout: 'echo: hello there\n' });
    const listed = await claw(['sessions', '--json'], state.env);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ key: 'agent:main:main', agentId: 'main', running: false })]);
    const table = await claw(['sessions', '--agent', 'main'], state.env);
    expect(table.stdout).toMatch(/KEY[\s\S]*agent:main:main/);
  }, 120_000);

  it('prints the failure and what to do when no model is configured', async () => {
    state = makeTempState();
    gateway = await startGatewayChild(state);
    const sent = await claw(['message', 'send', '--session', 'agent:main:main', 'hi'], state.env);
    expect(sent.code).toBe(1);
    // The daemon runs the agent runtime, which explains how to configure a model.
    expect(sent.stderr).toMatch(/No model[\s\S]*claw models list/);
    const bad = await claw(['message', 'send', 'hi'], state.env);
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringMatching(/--session KEY is required/) });
  }, 120_000);
});

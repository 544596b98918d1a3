import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeRawConfig } from '../../source/config/index.js';
import { followWords } from '../agent/sessions-harness.js';
import type { FakeLlmServer } from '../support/fake-llm-common.js';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import { startGatewayChild, type GatewayChild } from '../support/gateway-child.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { assertBuilt, runClaw, runClawOk } from './cli-process.js';

const slow = { timeout: 120_000 };
let state: TempState | undefined;
let gateway: GatewayChild | undefined;
let llm: FakeLlmServer | undefined;

beforeAll(assertBuilt);
afterEach(async () => {
  await gateway?.stop();
  await llm?.close();
  state?.cleanup();
  gateway = undefined;
  llm = undefined;
  state = undefined;
});

function systemPrompts(server: FakeLlmServer): string[] {
  return server.requests.map((r) => String((r.body.messages as Array<{ role: string; content: unknown }>).find((m) => m.role === 'system')?.content));
}

describe('claw agents', () => {
  it('adds an agent that answers its next message without a restart, lists it, and removes it', slow, async () => {
    llm = await startFakeOpenAI();
    llm.setDefault(followWords);
    state = makeTempState();
    writeRawConfig(state.paths.config, {
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
      agents: { defaults: { model: 'fake/m', heartbeat: { every: '0' } } },
    });
    gateway = await startGatewayChild(state);
    const pid = gateway.child.pid;

    const before = await runClaw(['agent', '-m', 'answer hello', '--session', 'agent:work:main'], state.env);
    expect(before.code).not.toBe(0);
    expect(before.stderr).toContain('Unknown agent "work"');
    expect(before.stderr).toContain('claw agents add work');

    const added = await runClawOk(['agents', 'add', 'work', '--name', 'Work'], state.env);
    expect(added.stdout).toContain(`added agent work; workspace ${join(state.dir, 'workspace-work')}`);
    expect(existsSync(join(state.dir, 'workspace-work', 'AGENTS.md'))).toBe(true);

    const reply = await runClawOk(['agent', '-m', 'answer ready for work', '--session', 'agent:work:main'], state.env);
    expect(reply.stdout).toContain('ready for work');
    expect(systemPrompts(llm).at(-1)).toContain(`workspace: ${join(state.dir, 'workspace-work')}`);
    expect(gateway.child.pid).toBe(pid);

    const listed = JSON.parse((await runClawOk(['agents', 'list', '--json'], state.env)).stdout) as Array<{ id: string; default: boolean; sessions: number }>;
    expect(listed).toEqual([
      expect.objectContaining({ id: 'main', default: true }),
      expect.objectContaining({ id: 'work', name: 'Work', default: false, sessions: 1 }),
    ]);
    expect((await runClawOk(['agents'], state.env)).stdout).toMatch(/^work \(Work\)\s+fake\/m\s+0 bindings, 1 session$/m);

    const again = await runClaw(['agents', 'add', 'work'], state.env);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('Agent "work" already exists');
    const mainGone = await runClaw(['agents', 'remove', 'main'], state.env);
    expect(mainGone.stderr).toContain('"main" is the default agent');

    expect((await runClawOk(['agents', 'remove', 'work'], state.env)).stdout).toContain('removed agent work; its workspace');
    const after = await runClaw(['agent', '-m', 'answer still there?', '--session', 'agent:work:main'], state.env);
    expect(after.stderr).toContain('Unknown agent "work"');
    expect(existsSync(join(state.dir, 'workspace-work', 'AGENTS.md'))).toBe(true);
  });

  it('says how to use it', slow, async () => {
    state = makeTempState();
    const bad = await runClaw(['agents', 'add'], state.env);
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining('"add" needs an agent id. `claw help agents` shows the usage.') });
    const help = await runClawOk(['help', 'agents'], state.env);
    expect(help.stdout).toContain('claw agents add ID [--name NAME] [--workspace DIR] [--model provider/model] [--default] [--json]');
  });
});

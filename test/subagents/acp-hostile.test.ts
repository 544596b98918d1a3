import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayClient } from '../../source/client/index.js';
import type { SubagentNode } from '../../source/protocol/index.js';
import { probeSandbox } from '../../source/tools/index.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { repoRoot, tsNodeArgs } from '../support/mcp-servers.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { assistantTexts, entriesOf, userMessages, waitFor } from './subagents-harness.js';

const probe = probeSandbox();
const noSandbox = probe.kind === 'none' ? probe.reason : '';
if (noSandbox) console.warn(`ACP sandbox tests skipped: ${noSandbox}`);

let gateway: TestGateway | undefined;
let llm: FakeLlmServer | undefined;
let states: TempState[] = [];
afterEach(async () => {
  await gateway?.stop();
  await llm?.close();
  for (const state of states) state.cleanup();
  gateway = llm = undefined;
  states = [];
});

const PARENT = 'agent:main:main';

/** Host processes whose command line carries `marker` (pids written from inside the sandbox are its own namespace's). */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** A gateway whose ACP agent `hostile` runs behind a launcher, as npm bins and npx do. */
async function start(
  options: { stubborn?: boolean; state?: TempState; env?: Record<string, string> } = {},
): Promise<{ g: TestGateway; workspace: string; pidFile: string; promptsFile: string; marker: string }> {
  const marker = `claw-acp-test-${randomUUID()}`;
  llm ??= await startFakeOpenAI();
  llm.setDefault(() => ({ text: 'noted' }));
  const state = options.state ?? makeTempState();
  if (!options.state) states.push(state);
  const workspace = state.paths.workspace('main');
  mkdirSync(workspace, { recursive: true });
  const pidFile = join(workspace, 'agent.pids');
  const promptsFile = join(workspace, 'agent.prompts');
  gateway = await startTestGateway({
    state,
    config: {
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
      agents: { defaults: { model: 'fake/m', heartbeat: { every: '0' } } },
      // A restart does not wait the default 10 s for running turns.
      gateway: { drainTimeoutMs: 300 },
      acp: {
        agents: {
          hostile: {
            command: process.execPath,
            args: [join(repoRoot, 'test/support/acp-launcher.mjs'), ...tsNodeArgs('acp-hostile-agent.ts', [marker])],
            env: { ACP_PID_FILE: pidFile, ACP_PROMPTS_FILE: promptsFile, ...(options.stubborn ? { ACP_STUBBORN: '1' } : {}), ...options.env },
          },
        },
      },
    },
    core: {},
  });
  return { g: gateway, workspace, pidFile, promptsFile, marker };
}

async function runChild(g: TestGateway, task: string): Promise<SubagentNode> {
  const { runId } = await g.core.subagents.spawn({ parentKey: PARENT, task, runtime: 'acp', agent: 'hostile', label: 'hostile' });
  return waitFor('the child to end', () => g.core.subagents.list(PARENT).find((n) => n.runId === runId && n.endedAt !== undefined), 20_000);
}

async function replyOf(g: TestGateway, node: SubagentNode): Promise<string> {
  return assistantTexts(await entriesOf(g.core, node.key)).join('');
}

describe.skipIf(Boolean(noSandbox))('external agents that misbehave', () => {
  it('run in the exec sandbox: the gateway token and everything outside the workspace are out of reach of the process itself', async () => {
    const { g, workspace } = await start();
    const node = await runChild(g, 'secrets');
    const reply = await replyOf(g, node);
    expect(reply).toContain('token: failed (ENOENT)');
    expect(reply).not.toContain(g.token);
    // Outside the workspace a write fails or lands in a private tmpfs that is gone with the sandbox.
    expect(existsSync(join(workspace, '..', 'escaped-by-agent.txt'))).toBe(false);
  });

  it('behind a launcher and deaf to SIGTERM and to the end of its stdin, it still ends, and its whole process tree with it', async () => {
    const { g, pidFile, marker } = await start({ stubborn: true });
    const started = Date.now();
    const node = await runChild(g, 'inject');
    expect(node.status).toBe('done');
    expect(Date.now() - started).toBeLessThan(15_000);
    // The launcher and the agent it started.
    expect(readFileSync(pidFile, 'utf8').trim().split('\n')).toHaveLength(2);
    await waitFor('every process of the agent to be gone', () => processesWith(marker).length === 0, 10_000);
    // The update it sent for another session is not this child's reply.
    expect(await replyOf(g, node)).toBe('own text');
  });

  it('a refused file request reaches the agent as a JSON-RPC error that says why', async () => {
    const { g } = await start();
    const reply = await replyOf(g, await runChild(g, 'refused'));
    expect(reply).toContain('claw refused to read ../credentials/gateway-token');
    expect(reply).not.toContain('Internal error');
    expect(reply).not.toContain(g.token);
  });

  it('a permission request shows the command, the paths and the diff; a denial is reported as denied, by whom', async () => {
    const { g } = await start();
    const client: GatewayClient = await g.connect();
    const { runId } = await g.core.subagents.spawn({ parentKey: PARENT, task: 'detail', runtime: 'acp', agent: 'hostile', label: 'detail' });
    const approval = await waitFor('the approval', async () => (await client.request('approvals.list', {})).approvals.find((a) => a.status === 'pending'));
    expect(approval.kind).toBe('acp');
    expect(approval.command).toContain('hostile: Run a command');
    expect(approval.command).toContain('$ rm -rf build && make');
    expect(approval.command).toContain('paths: src/app.ts');
    expect(approval.command).toContain('-const a = 1;');
    expect(approval.command).toContain('+const a = 2;');
    expect(approval.cwd).toBe('/work/project');
    await client.request('approvals.resolve', { id: approval.id, decision: 'deny' });
    const node = await waitFor('the child to end', () => g.core.subagents.list(PARENT).find((n) => n.runId === runId && n.endedAt !== undefined), 20_000);
    expect(node.status).toBe('failed');
    const result = await waitFor('the result in the parent', async () =>
      userMessages(await entriesOf(g.core, PARENT)).find((m) => m.text.startsWith('[subagent_result]')),
    );
    expect(result.text).toMatch(/"Run a command" was denied by /);
    expect(result.text).not.toContain('cancelled');
  });

  it('a flood of text chunks reaches clients as a few batched deltas, and the reply is whole', async () => {
    const { g } = await start();
    const client = await g.connect();
    let deltas = 0;
    client.on('chat', (payload) => {
      if (payload.state === 'delta' && payload.sessionKey.includes(':subagent:')) deltas += 1;
    });
    const node = await runChild(g, 'flood 5000');
    expect(await replyOf(g, node)).toBe(`${'x'.repeat(5000)}.`);
    expect(deltas).toBeLessThan(200);
  });

  it('a run cut by a gateway restart is not run again: the child ends as interrupted and the parent is told', async () => {
    const state = makeTempState();
    states.push(state);
    const first = await start({ state });
    const { runId } = await first.g.core.subagents.spawn({ parentKey: PARENT, task: 'hang', runtime: 'acp', agent: 'hostile', label: 'hanger' });
    await waitFor('the prompt to reach the agent', () => existsSync(first.promptsFile) && readFileSync(first.promptsFile, 'utf8').includes('hang'), 20_000);
    await first.g.server.stop('restart');
    gateway = undefined;
    const second = await start({ state });
    const node = await waitFor(
      'the child to end after the restart',
      () => second.g.core.subagents.list(PARENT).find((n) => n.runId === runId && n.endedAt !== undefined),
      20_000,
    );
    expect(node.status).toBe('failed');
    const result = await waitFor('the result in the parent', async () =>
      userMessages(await entriesOf(second.g.core, PARENT)).find((m) => m.text.startsWith('[subagent_result]')),
    );
    expect(result.text).toContain('interrupted by a gateway restart');
    expect(readFileSync(second.promptsFile, 'utf8').trim().split('\n')).toEqual(['hang']);
  });

  it('an agent that asks for authentication is authenticated with the key its env holds, or the failure says which variable to set', async () => {
    const withKey = await start({ env: { ACP_AUTH_VAR: 'TEST_AGENT_KEY', TEST_AGENT_KEY: 'sk-test' } });
    const done = await runChild(withKey.g, 'inject');
    expect(done.status).toBe('done');
    await withKey.g.stop();
    gateway = undefined;
    const withoutKey = await start({ env: { ACP_AUTH_VAR: 'TEST_AGENT_KEY' } });
    const failed = await runChild(withoutKey.g, 'inject');
    expect(failed.status).toBe('failed');
    const result = await waitFor('the result in the parent', async () =>
      userMessages(await entriesOf(withoutKey.g.core, PARENT)).find((m) => m.text.startsWith('[subagent_result]')),
    );
    expect(result.text).toContain('needs authentication: TEST_AGENT_KEY in acp.agents.hostile.env');
  });
});

import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../source/config/index.js';
import { createToolsRuntime, writeExecApprovalsFile, type ToolsRuntime } from '../../source/tools/index.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { mainSessionContext } from '../support/tool-context.js';

let state: TempState;
let runtime: ToolsRuntime;

function setup(security: 'allowlist' | 'full' = 'full') {
  state = makeTempState();
  writeExecApprovalsFile(state.paths.execApprovals, { version: 1, security, ask: 'on-miss', safeList: true, agents: {} });
  runtime = createToolsRuntime({ config: loadConfig(state.paths.config), paths: state.paths });
  const workspaceDir = state.paths.workspace('main');
  mkdirSync(workspaceDir, { recursive: true });
  const controller = new AbortController();
  const updates: string[] = [];
  const context = mainSessionContext(runtime, workspaceDir, { signal: controller.signal, onUpdate: (text) => updates.push(text) });
  return { context, controller, updates, workspaceDir };
}

/** The command's output without the untrusted fence and the status line. */
function body(content: string): string {
  const match = /^<untrusted_content nonce="([0-9a-f]+)"[^>]*>\n([\s\S]*)\n<\/untrusted_content nonce="\1">\n\[[^\]]+\]$/.exec(content);
  if (!match) throw new Error(`not a fenced exec result: ${content.slice(0, 200)}`);
  return match[2]!;
}

/** Host processes whose command line contains `marker` (pids inside the sandbox are namespaced, so look at the host's /proc). */
function processesWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i += 1) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

afterEach(async () => {
  await runtime.close();
  state.cleanup();
});

describe('exec with real processes', () => {
  it('runs pipes and chains without a shell, streaming output', async () => {
    const { context, updates } = setup();
    const result = await runtime.registry.invoke('exec', { command: "printf 'b\\na\\n' | sort && echo 'x;y' || echo never" }, context);
    expect(result.isError).toBe(false);
    expect(body(result.content)).toBe('a\nb\nx;y\n');
    expect(updates.join('')).toContain('x;y');
  });

  it('writes and reads redirections relative to the workdir', async () => {
    const { context } = setup();
    await runtime.registry.invoke('exec', { command: 'echo one > out.txt; echo two >> out.txt' }, context);
    const result = await runtime.registry.invoke('exec', { command: 'cat < out.txt' }, context);
    expect(result.content).toContain('one\ntwo');
  });

  it('reports a non-zero exit as an error result', async () => {
    const { context } = setup();
    const result = await runtime.registry.invoke('exec', { command: 'ls /definitely/not/here' }, context);
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ exitCode: 2 });
  });

  it('kills the whole process tree on timeout', async () => {
    const { context } = setup();
    const marker = `61.${process.pid}`;
    const pending = runtime.registry.invoke('exec', { command: `/bin/sh -c 'sleep ${marker} & wait'`, timeout: 2 }, context);
    await waitFor(() => processesWith(`sleep\0${marker}`).length > 0, 'the grandchild to start');
    const result = await pending;
    expect(result.content).toContain('killed after timeout');
    await waitFor(() => processesWith(`sleep\0${marker}`).length === 0, 'the grandchild to die');
  });

  it('kills on abort', async () => {
    const { context, controller } = setup();
    const pending = runtime.registry.invoke('exec', { command: 'sleep 30' }, context);
    setTimeout(() => controller.abort(), 100);
    const result = await pending;
    expect(result.content).toContain('aborted');
  });

  it('leaves nothing running when the abort comes at any moment of the start-up', async () => {
    const { context } = setup();
    const marker = `62.${process.pid}`;
    // Early in its start-up bwrap may die of the signal without taking the sandboxed command along.
    for (const delayMs of [0, 2, 4, 8, 15, 30]) {
      const abort = new AbortController();
      const run = runtime.registry.invoke('exec', { command: `sleep ${marker}` }, { ...context, signal: abort.signal });
      setTimeout(() => abort.abort(), delayMs);
      expect((await run).content, `abort after ${delayMs} ms`).toContain('aborted');
      await waitFor(() => processesWith(`sleep\0${marker}`).length === 0, `nothing left after an abort at ${delayMs} ms`);
    }
  });

  it('caps output at head + tail', async () => {
    const { context } = setup();
    const result = await runtime.registry.invoke('exec', { command: 'seq 1 100000' }, context);
    expect(result.content).toContain('characters omitted');
    expect(body(result.content).startsWith('1\n2\n')).toBe(true);
    expect(result.content).toContain('100000\n');
    expect(result.content.length).toBeLessThan(201_000);
  });

  it('runs background jobs driven by the process tool', async () => {
    const { context } = setup();
    const started = await runtime.registry.invoke('exec', { command: 'cat', background: true }, context);
    const id = started.details?.jobId as string;
    expect(id).toBeTruthy();
    expect((await runtime.registry.invoke('process', { action: 'write', id, data: 'hello job\n' }, context)).isError).toBe(false);
    await waitFor(async () => (await runtime.registry.invoke('process', { action: 'log', id }, context)).content.includes('hello job'), 'echoed input');
    const list = await runtime.registry.invoke('process', { action: 'list' }, context);
    expect(list.content).toContain(`${id} running`);
    const killed = await runtime.registry.invoke('process', { action: 'kill', id }, context);
    expect(killed.content).toContain('Killed');
    const poll = await runtime.registry.invoke('process', { action: 'poll', id }, context);
    expect(poll.content).toContain('killed');
  });

  it('turns bad arguments into an error the model can read', async () => {
    const { context } = setup();
    const result = await runtime.registry.invoke('exec', { command: 42 }, context);
    expect(result.isError).toBe(true);
    expect(result.content).toContain('Invalid arguments for exec: command');
    expect((await runtime.registry.invoke('nope', {}, context)).content).toContain('Unknown tool');
  });

  it('under the default policy, an unlisted command waits for approval and a denial is reported', async () => {
    const { context } = setup('allowlist');
    const pending = runtime.registry.invoke('exec', { command: 'touch made-by-exec' }, context);
    await waitFor(() => runtime.inbox.list().length === 1, 'the approval request');
    const [request] = runtime.inbox.list();
    expect(request).toMatchObject({ command: 'touch made-by-exec', status: 'pending', kind: 'exec' });
    // Whoever approves it knows the command will have no network in the sandbox.
    if (runtime.sandbox.status.kind === 'bubblewrap') expect(request!.reason).toContain('runs WITHOUT network in the sandbox');
    runtime.inbox.resolve(request!.id, 'deny', 'test');
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(result.content).toContain('operator denied');
  });

  it('a shell-required command approved once runs through /bin/sh exactly as shown', async () => {
    const { context } = setup('allowlist');
    const pending = runtime.registry.invoke('exec', { command: 'echo "home=$HOME"' }, context);
    await waitFor(() => runtime.inbox.list().length === 1, 'the approval request');
    runtime.inbox.resolve(runtime.inbox.list()[0]!.id, 'once', 'test');
    const result = await pending;
    expect(result.content).toContain(`home=${process.env.HOME}`);
  });
});

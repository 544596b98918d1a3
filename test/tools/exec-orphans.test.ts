import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeFileAtomicSync, writeRawConfig } from '../../source/config/index.js';
import { execGroupsDir, ProcessGroupLedger } from '../../source/tools/index.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import { CLI_ENTRY, startGatewayChild, type GatewayChild } from '../support/gateway-child.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

let state: TempState | undefined;
let llm: FakeLlmServer | undefined;
let gateway: GatewayChild | undefined;
const strays: number[] = [];

afterEach(async () => {
  await gateway?.kill9();
  await llm?.close();
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Ended by the test already.
    }
  }
  state?.cleanup();
  gateway = undefined;
  llm = undefined;
  state = undefined;
});

/** Pids whose command line is exactly `argv` (a unique `sleep` duration marks the test's own). */
function pidsRunning(argv: string[]): number[] {
  const wanted = argv.join('\0');
  return readdirSync('/proc').flatMap((name) => {
    if (!/^\d+$/.test(name)) return [];
    try {
      return readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0$/, '') === wanted ? [Number(name)] : [];
    } catch {
      return [];
    }
  });
}

function alive(pid: number): boolean {
  try {
    // A zombie still answers signal 0; its state letter says it has exited.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('exec process groups', () => {
  it.skipIf(!existsSync(CLI_ENTRY))(
    'a gateway killed with SIGKILL during an unsandboxed exec leaves sleep running; the next start ends it',
    async () => {
      state = makeTempState('claw-orphans-');
      const server = await startFakeOpenAI();
      llm = server;
      const seconds = `1000.${process.pid}${Date.now() % 1000}`;
      server.setDefault((request) => {
        const messages = request.body.messages as Array<{ role?: string }>;
        if (messages.at(-1)?.role === 'tool') return { text: 'done' };
        return { toolCalls: [{ id: 'call_sleep', name: 'exec', arguments: { command: `sleep ${seconds}` } }] };
      });
      writeRawConfig(state.paths.config, {
        models: { providers: { fake: { api: 'openai', baseUrl: server.baseUrl, models: { m: {} } } } },
        agents: { defaults: { model: 'fake/m' } },
        tools: { exec: { sandbox: { mode: 'off' } } },
      });
      writeFileAtomicSync(state.paths.execApprovals, JSON.stringify({ version: 1, security: 'full', ask: 'off' }));
      gateway = await startGatewayChild(state);
      const client = await gateway.connect();
      await client.request('chat.send', { sessionKey: 'agent:main:main', text: 'sleep please', idempotencyKey: 'k1' });
      await vi.waitFor(() => expect(pidsRunning(['sleep', seconds])).toHaveLength(1), { timeout: 20_000, interval: 50 });
      const [sleeper] = pidsRunning(['sleep', seconds]);
      strays.push(sleeper!);
      // The gateway records the group just after the spawn returns: on a loaded machine, after sleep shows up.
      const groupsDir = execGroupsDir(state.paths);
      await vi.waitFor(() => expect(readdirSync(groupsDir)).toEqual([`${sleeper}.json`]), { timeout: 5_000, interval: 20 });

      await gateway.kill9();
      gateway = undefined;
      // Nothing ended it: re-parented, it would run for 1000 s.
      expect(alive(sleeper!)).toBe(true);

      gateway = await startGatewayChild(state);
      expect(alive(sleeper!)).toBe(false);
      expect(readdirSync(execGroupsDir(state.paths))).toEqual(
        // The restart re-runs the interrupted message, which may have started a new sleep already.
        pidsRunning(['sleep', seconds]).map((pid) => `${pid}.json`),
      );
      await gateway.stop();
      gateway = undefined;
    },
    120_000,
  );

  it('ends only processes provably of a recorded group: a record whose leader started at another time is a reused pid', async () => {
    state = makeTempState('claw-orphans-');
    const dir = execGroupsDir(state.paths);
    const child = spawn('sleep', ['1000'], { detached: true, stdio: 'ignore' });
    child.unref();
    const pid = child.pid!;
    strays.push(pid);
    const writer = new ProcessGroupLedger(dir);
    writer.track(pid, 'sleep 1000');
    const record = JSON.parse(readFileSync(join(dir, `${pid}.json`), 'utf8')) as { pgid: number; startTime: number; gatewayPid: number };
    expect(record.pgid).toBe(pid);

    // Another gateway's record of the same group id, from a process that started earlier: not this sleep.
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${pid}.json`), JSON.stringify({ ...record, startTime: record.startTime - 1, gatewayPid: 1 }));
    expect(new ProcessGroupLedger(dir).endLeftovers()).toEqual([]);
    expect(alive(pid)).toBe(true);
    expect(readdirSync(dir)).toEqual([]);

    writeFileSync(join(dir, `${pid}.json`), JSON.stringify({ ...record, gatewayPid: 1 }));
    writeFileSync(join(dir, 'garbage.json'), '{not json');
    expect(new ProcessGroupLedger(dir).endLeftovers()).toEqual([{ pgid: pid, command: 'sleep 1000', killed: [pid] }]);
    await vi.waitFor(() => expect(alive(pid)).toBe(false));
    expect(readdirSync(dir)).toEqual([]);
  });
});

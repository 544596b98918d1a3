import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ENTRY, runCli } from '../support/cli-process.js';
import type { FakeLlmServer } from '../support/fake-llm-common.js';
import { startFakeModelDaemon, type FakeModelDaemon } from '../support/fake-model-daemon.js';
import type { TempState } from '../support/temp-state.js';

// Child processes on a loaded 2-core machine: generous limits, no timing asserts.
const SLOW = 90_000;
let daemon: FakeModelDaemon;
let state: TempState;
let llm: FakeLlmServer;

beforeAll(async () => {
  daemon = await startFakeModelDaemon({ timeoutMs: SLOW });
  ({ state, llm } = daemon);
}, SLOW);

afterAll(() => daemon.stop());

describe('claw agent -m', () => {
  it(
    'streams the reply from the model through the daemon',
    async () => {
      llm.reply({ text: 'Hello from the fake model.' });
      const result = await runCli(['agent', '-m', 'hi there'], state.env, SLOW);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('Hello from the fake model.\n');
      expect(llm.requests.some((r) => JSON.stringify(r.body).includes('hi there'))).toBe(true);
    },
    SLOW,
  );

  it(
    '--output stream-json prints one JSON event a line: deltas, the tool call with its result, the final reply; a slash command its reply',
    async () => {
      llm.reply({ toolCalls: [{ id: 'c1', name: 'memory_search', arguments: { query: 'lisbon' } }] }, { text: 'Nothing about Lisbon yet.', chunkSize: 8 });
      const result = await runCli(
        ['agent', '-m', 'what do you know about lisbon?', '--session', 'agent:main:cli:direct:stream', '--output', 'stream-json'],
        state.env,
        SLOW,
      );
      expect(result.code, result.stderr).toBe(0);
      const events = result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; [key: string]: unknown });
      const types = events.map((event) => event.type);
      expect(types.filter((type) => type === 'tool')).toHaveLength(2);
      expect(events.find((event) => event.type === 'tool' && event.phase === 'start')).toMatchObject({ name: 'memory_search', toolCallId: 'c1' });
      expect(events.find((event) => event.type === 'tool' && event.phase === 'end')).toMatchObject({ name: 'memory_search', isError: false });
      expect(
        events
          .filter((event) => event.type === 'delta')
          .map((event) => event.text)
          .join(''),
      ).toBe('Nothing about Lisbon yet.');
      expect(events.at(-1)).toMatchObject({ type: 'final', text: 'Nothing about Lisbon yet.' });
      expect(types.indexOf('tool')).toBeLessThan(types.indexOf('delta'));

      const command = await runCli(['agent', '-m', '/think', '--output', 'stream-json'], state.env, SLOW);
      expect(JSON.parse(command.stdout.trim())).toMatchObject({ type: 'final', text: expect.stringContaining('thinking: off') });
      const bad = await runCli(['agent', '-m', 'x', '--output', 'yaml'], state.env, SLOW);
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toContain('--output is one of text, json, stream-json');
    },
    SLOW,
  );

  it(
    'a skill slash command prints the turn it starts, not only "Running the … skill"',
    async () => {
      const dir = join(state.paths.root, 'skills', 'internal-comms');
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, 'SKILL.md'),
        '---\nname: internal-comms\ndescription: Write internal announcements in the house style.\n---\n\nWrite it short and friendly.\n',
      );
      // The daemon's watcher picks the new skill up within about a second.
      let listed = '';
      for (let i = 0; i < 60 && !listed.includes('internal-comms'); i += 1) {
        listed = (await runCli(['skills', 'list'], state.env, SLOW)).stdout;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      llm.reply({ text: 'Team: the office is closed on Friday.' });
      const result = await runCli(['agent', '-m', '/internal-comms office closed friday', '--session', 'agent:main:cli:direct:skill'], state.env, SLOW);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('Team: the office is closed on Friday.\n');
      expect(result.stderr).toContain('Running the internal-comms skill with: office closed friday.');
    },
    SLOW,
  );

  it(
    'prints the final event as JSON for --json and honours --session',
    async () => {
      llm.reply({ text: 'Second answer.' });
      const result = await runCli(['agent', '-m', 'again', '--session', 'agent:main:cli:direct:me', '--json'], state.env, SLOW);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ state: 'final', text: 'Second answer.', sessionKey: 'agent:main:cli:direct:me' });
    },
    SLOW,
  );

  it(
    'exits non-zero with what to fix when the model call fails',
    async () => {
      llm.reply({ error: 'auth' });
      const result = await runCli(['agent', '-m', 'break please', '--session', 'agent:main:cli:direct:fail'], state.env, SLOW);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('HTTP 401');
      expect(result.stderr).toContain('Once the key is fixed, resend the message');
      expect(result.stderr).not.toContain('[none]');
    },
    SLOW,
  );

  it(
    'prints retries as they happen; the cooling model shows in models list and status until reset-cooldown lifts it',
    async () => {
      llm.reply(
        { error: 'overloaded', retryAfter: 0 },
        { error: 'overloaded', retryAfter: 0 },
        { error: 'overloaded', retryAfter: 0 },
        { error: 'overloaded', retryAfter: 0 },
      );
      const failed = await runCli(['agent', '-m', 'busy?', '--session', 'agent:main:cli:direct:busy'], state.env, SLOW);
      expect(failed.code).toBe(1);
      expect(failed.stderr.match(/claw: fake\/m: overloaded \(HTTP 503\)/g)).toHaveLength(3);

      const listed = await runCli(['models', 'list'], state.env, SLOW);
      expect(listed.stdout).toContain('Cooling down (`claw models reset-cooldown` lifts them):');
      expect(listed.stdout).toMatch(/\n {2}fake\/m cooling after overloaded, HTTP 503[^\n]*; tried again in \d+ s/);
      expect((await runCli(['status'], state.env, SLOW)).stdout).toMatch(/cooling {2}fake\/m cooling after overloaded/);

      const reset = await runCli(['models', 'reset-cooldown', 'fake/m'], state.env, SLOW);
      expect(reset.code, reset.stderr).toBe(0);
      expect(reset.stdout).toContain('Lifted:\n  fake/m cooling after overloaded');
      expect((await runCli(['models', 'list'], state.env, SLOW)).stdout).not.toContain('fake/m cooling');
    },
    SLOW,
  );

  it(
    'says which approval it waits for and how to answer it, then finishes once it is approved from another command',
    async () => {
      llm.reply({ text: 'Writing it.', toolCalls: [{ id: 'call_w', name: 'exec', arguments: { command: 'touch waited.txt' } }] }, { text: 'Written.' });
      const child = spawn(process.execPath, [CLI_ENTRY, 'agent', '-m', 'make waited.txt'], { env: state.env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString('utf8');
      });
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString('utf8');
      });
      const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
      try {
        await expect.poll(() => stderr, { timeout: SLOW, interval: 100 }).toMatch(/claw: waiting for approval (\S+) to run `touch waited.txt`/);
        const id = /waiting for approval (\S+) /.exec(stderr)![1]!;
        expect(stderr).toContain(`answer in the TUI or with \`claw approvals approve ${id}\``);
        const approved = await runCli(['approvals', 'approve', id], state.env, SLOW);
        expect(approved.code, approved.stderr).toBe(0);
        expect(await closed).toBe(0);
        expect(stdout).toContain('Written.');
      } finally {
        child.kill();
      }
    },
    SLOW,
  );
});

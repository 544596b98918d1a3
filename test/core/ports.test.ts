import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeRawConfig } from '../../source/config/index.js';
import type { FakeLlmServer } from '../support/fake-llm-common.js';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

const DAEMON = join(import.meta.dirname, '..', 'support', 'fake-trigger-daemon.ts');

let state: TempState | undefined;
let llm: FakeLlmServer | undefined;
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await llm?.close();
  state?.cleanup();
  state = llm = undefined;
});

function startDaemon(deliveries: string, text?: string): { child: ChildProcess; accepted: Promise<{ status: string; sessionKey: string }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', DAEMON, deliveries, ...(text === undefined ? [] : [text])], {
    env: { ...state!.env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const accepted = new Promise<{ status: string; sessionKey: string }>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve(JSON.parse(line) as { status: string; sessionKey: string });
    });
    child.once('exit', (code) => reject(new Error(`the trigger daemon exited (${code}) before accepting`)));
  });
  // A daemon started without a message never prints; its promise must not fail the run when it is killed.
  accepted.catch(() => undefined);
  return { child, accepted };
}

async function until(check: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function delivered(file: string): Array<{ route: Record<string, unknown>; reply: { status: string; text: string; messageId: string } }> {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

describe('a trigger built only from core ports', { timeout: 90_000 }, () => {
  it('accepts a message, sees its turn run and gets the reply through outbound, also after a kill -9 between acceptance and reply', async () => {
    state = makeTempState();
    llm = await startFakeOpenAI();
    // The first attempt never finishes: the daemon is killed while the model is still "thinking".
    llm.reply({ text: 'too late', hang: true });
    llm.setDefault({ text: 'the reply, after the restart' });
    writeRawConfig(state.paths.config, {
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
      agents: { defaults: { model: 'fake/m' } },
    });
    const deliveries = join(state.dir, 'deliveries.jsonl');

    const first = startDaemon(deliveries, 'what is on my calendar?');
    const accepted = await first.accepted;
    expect(accepted).toMatchObject({ status: 'started', sessionKey: 'agent:main:fake:direct:peer-7' });
    await llm.waitForRequests(1);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    expect(delivered(deliveries)).toEqual([]);

    startDaemon(deliveries);
    await until(() => delivered(deliveries).length > 0, 'the reply after the restart');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const replies = delivered(deliveries);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({
      route: { channel: 'fake', accountId: 'acct-1', peer: { kind: 'direct', id: 'peer-7' }, threadId: 'thread-3' },
      reply: { status: 'replied', text: 'the reply, after the restart', messageId: 'fake-message-1' },
    });
  });
});

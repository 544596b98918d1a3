import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatEventPayload, SessionSummary } from '../../source/protocol/index.js';
import { echoRunner } from '../../source/queue/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';

let gateway: TestGateway | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

const waitFor = <T>(fn: () => T): Promise<T> => vi.waitFor(fn, { timeout: 10_000, interval: 10 });

describe('sessions.* and chat.* through the gateway', () => {
  it('without a runner, a message fails visibly with what to configure', async () => {
    gateway = await startTestGateway({ core: {} });
    const client = await gateway.connect();
    const chat: ChatEventPayload[] = [];
    client.on('chat', (payload) => chat.push(payload));
    const sent = await client.request('chat.send', { sessionKey: 'agent:main:main', text: 'hello' });
    expect(sent.status).toBe('started');
    expect(sent.idempotencyKey).toMatch(/[0-9a-f-]{36}/);
    await waitFor(() =>
      expect(chat).toContainEqual(
        expect.objectContaining({ runId: sent.runId, state: 'error', message: expect.stringMatching(/No model provider is configured/) }),
      ),
    );
  });

  it('serves list, get, history, patch, new, reset and delete', async () => {
    gateway = await startTestGateway({ core: { runner: echoRunner } });
    const client = await gateway.connect();
    const changes: string[] = [];
    client.on('sessions.changed', (p) => changes.push(`${p.reason}:${p.key}`));
    const finals: string[] = [];
    client.on('chat', (p) => {
      if (p.state === 'final') finals.push(p.text);
    });
    const key = 'agent:main:tui:direct:me';
    await client.request('chat.send', { sessionKey: key, text: 'one', idempotencyKey: 'k1' });
    await waitFor(() => expect(finals).toEqual(['echo: one']));
    const dup = await client.request('chat.send', { sessionKey: key, text: 'one', idempotencyKey: 'k1' });
    expect(dup.status).toBe('started');

    const listed = await client.request('sessions.list', {});
    expect(listed.sessions.map((s: SessionSummary) => s.key)).toEqual([key]);
    const got = await client.request('sessions.get', { key });
    expect(got.session).toMatchObject({ key, agentId: 'main', kind: 'direct', lastChannel: 'tui', running: false, queued: 0 });
    const history = await client.request('sessions.history', { key, limit: 10 });
    expect(history.entries.map((e) => (e.type === 'message' ? e.role : e.type))).toEqual(['user', 'assistant']);

    const patched = await client.request('sessions.patch', { key, patch: { label: 'me', queueMode: 'steer' } });
    expect(patched.session).toMatchObject({ label: 'me', queueMode: 'steer' });
    const cleared = await client.request('sessions.patch', { key, patch: { label: null } });
    expect(cleared.session.label).toBeUndefined();

    const renewed = await client.request('sessions.new', { key, model: 'openai/gpt-4o' });
    expect(renewed.session.sessionId).not.toBe(got.session.sessionId);
    expect(renewed.session.model).toBe('openai/gpt-4o');
    expect((await client.request('sessions.history', { key })).entries).toEqual([]);
    const reset = await client.request('sessions.reset', { key });
    expect(reset.session.sessionId).not.toBe(renewed.session.sessionId);

    expect(await client.request('sessions.delete', { key })).toEqual({ deleted: true });
    expect(await client.request('sessions.delete', { key })).toEqual({ deleted: false });
    await waitFor(() => expect(changes).toEqual(expect.arrayContaining([`created:${key}`, `updated:${key}`, `reset:${key}`, `deleted:${key}`])));
    const hello = (await gateway.connect()).hello!;
    expect(hello.snapshot).toMatchObject({ sessions: [], lanes: { global: { limit: 4 } } });
  });

  it('answers bad input with clear errors and writes nothing', async () => {
    gateway = await startTestGateway({ core: { runner: echoRunner }, config: { session: { maxMessageChars: 10 } } });
    const client = await gateway.connect();
    await expect(client.request('sessions.get', { key: 'agent:main:main' })).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringMatching(/claw sessions/),
    });
    await expect(client.request('chat.send', { sessionKey: 'agent:main:main', text: 'x'.repeat(11) })).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/11 characters; the limit is 10/),
    });
    await expect(client.request('chat.send', { sessionKey: 'bogus', text: 'hi' })).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/Valid shapes/),
    });
    await expect(client.request('chat.send', { sessionKey: 'agent:main:main', text: 'hi', queueMode: 'sideways' as never })).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/queueMode/),
    });
    await expect(client.request('chat.send', { sessionKey: 'agent:main:main', text: '   ' })).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/empty/),
    });
    expect((await client.request('sessions.list', {})).sessions).toEqual([]);
  });

  it('chat.abort stops a running turn and the sender sees it', async () => {
    let release: (() => void) | undefined;
    gateway = await startTestGateway({
      core: {
        runner: {
          run: (turn) =>
            new Promise((resolve) => {
              release = () => resolve({ status: 'replied', text: 'late' });
              turn.signal.addEventListener('abort', () => resolve({ status: 'aborted', error: 'stopped by the user' }));
            }),
        },
      },
    });
    const client = await gateway.connect();
    const chat: ChatEventPayload[] = [];
    client.on('chat', (p) => chat.push(p));
    const sent = await client.request('chat.send', { sessionKey: 'agent:main:main', text: 'long job' });
    await waitFor(() => expect(release).toBeDefined());
    expect(await client.request('chat.abort', { sessionKey: 'agent:main:main' })).toEqual({ aborted: true, runId: sent.runId });
    await waitFor(() => expect(chat).toContainEqual(expect.objectContaining({ runId: sent.runId, state: 'aborted' })));
  });
});

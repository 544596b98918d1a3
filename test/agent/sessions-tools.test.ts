import { afterEach, describe, expect, it } from 'vitest';
import { startSessionsGateway, type SessionsGateway } from './sessions-harness.js';

let running: SessionsGateway | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

async function start(config: Record<string, unknown> = {}): Promise<SessionsGateway> {
  running = await startSessionsGateway(config);
  return running;
}

const A = 'agent:main:main';
const B = 'agent:main:direct:bob';

describe('sessions_send', () => {
  it('delivers the message to the other session and returns its reply to the waiting call', async () => {
    const s = await start();
    await s.say(A, `ask ${B} answer forty-two`);
    const [sent] = await s.toolResults(A);
    expect(sent).toMatchObject({ tool: 'sessions_send', isError: false });
    expect(JSON.parse(sent!.content)).toMatchObject({ sessionKey: B, status: 'replied', reply: 'forty-two', hops: 1 });
    expect(await s.lastReply(A)).toContain('forty-two');
    // The other session got the message, framed with who sent it, on its own transcript.
    const history = (await s.gateway.core.sessions.registry.open(B)).entries();
    const received = history.find((e) => e.type === 'message' && e.role === 'user');
    expect(received).toMatchObject({ content: expect.stringContaining(`from session ${A} via sessions_send, hop 1 of 3`) });
    expect(received).toMatchObject({ meta: { channel: 'session', senderId: A } });
  });

  it('stops a chain of sends after 3 hops and says so', async () => {
    const s = await start();
    const [c, d, e] = ['agent:main:direct:carol', 'agent:main:direct:dave', 'agent:main:direct:erin'];
    await s.say(A, `relay ${B} ${c} ${d} ${e}`);
    for (const [key, hops] of [
      [A, 1],
      [B, 2],
      [c, 3],
    ] as const) {
      const [sent] = await s.toolResults(key);
      expect(JSON.parse(sent!.content)).toMatchObject({ status: 'sent', hops });
    }
    const [refused] = await s.toolResults(d);
    expect(refused).toMatchObject({ tool: 'sessions_send', isError: true });
    expect(refused!.content).toMatch(/Hop limit reached: .*already came through 3 sessions_send hops.*stops at 3/);
    expect(s.gateway.core.sessions.registry.get(e)).toBeUndefined();
  });

  it('refuses a send back to a session that is waiting for the sender, instead of deadlocking both', async () => {
    const s = await start();
    await s.say(A, `ask ${B} ask ${A} answer ping`);
    const [back] = await s.toolResults(B);
    expect(back).toMatchObject({ tool: 'sessions_send', isError: true });
    expect(back!.content).toContain(`${A} is waiting for your reply to its own message`);
    const [sent] = await s.toolResults(A);
    expect(JSON.parse(sent!.content)).toMatchObject({ status: 'replied', reply: expect.stringContaining('is waiting for your reply') });
    // Nothing was queued on A behind its own wait.
    expect((await s.toolResults(A)).length).toBe(1);
  });

  it('refuses to send to itself and to an unknown agent', async () => {
    const s = await start();
    await s.say(A, `ask ${A} answer me`);
    await s.say(B, 'ask agent:ghost:main answer boo');
    expect((await s.toolResults(A))[0]).toMatchObject({ isError: true, content: expect.stringContaining('That is this session') });
    expect((await s.toolResults(B))[0]).toMatchObject({ isError: true, content: expect.stringContaining('No agent "ghost". Known agents: main') });
  });
});

describe('visibility of the sessions tools', () => {
  const twoAgents = { agents: { list: [{ id: 'main', default: true }, { id: 'work' }] } };

  it("shows an agent only its own sessions, and refuses another agent's", async () => {
    const s = await start(twoAgents);
    await s.say('agent:work:main', 'answer busy at work');
    await s.say(B, 'answer hello');
    await s.say(A, 'list');
    const listed = JSON.parse((await s.toolResults(A))[0]!.content) as { sessions: Array<{ sessionKey: string }> };
    expect(listed.sessions.map((x) => x.sessionKey).sort()).toEqual([A, B].sort());
    await s.say(A, 'history agent:work:main');
    await s.say(A, 'ask agent:work:main answer hi');
    await s.say(A, 'status agent:work:main');
    const [, history, send, status] = await s.toolResults(A);
    for (const refused of [history, send, status]) {
      expect(refused).toMatchObject({ isError: true });
      expect(refused!.content).toMatch(/belongs to another agent.*tools\.sessions\.visibility to "all"/);
    }
  });

  it("shows every agent's sessions with tools.sessions.visibility: all", async () => {
    const s = await start({ ...twoAgents, tools: { sessions: { visibility: 'all' } } });
    await s.say('agent:work:main', 'answer busy at work');
    await s.say(A, 'list main');
    const listed = JSON.parse((await s.toolResults(A))[0]!.content) as { sessions: Array<{ sessionKey: string }> };
    expect(listed.sessions.map((x) => x.sessionKey).sort()).toEqual([A, 'agent:work:main']);
    await s.say(A, 'history agent:work:main');
    const history = JSON.parse((await s.toolResults(A))[1]!.content) as { messages: Array<{ role: string; text: string }> };
    expect(history.messages).toEqual([
      expect.objectContaining({ role: 'user', text: 'answer busy at work' }),
      expect.objectContaining({ role: 'assistant', text: 'busy at work' }),
    ]);
  });

  it('lets a parent see the sessions its children run under another agent', async () => {
    const s = await start(twoAgents);
    const child = 'agent:work:subagent:c1';
    s.gateway.core.sessions.registry.ensure(child);
    // sessions_spawn records spawnedBy on the child's entry; this writes the same field the way it does.
    s.gateway.core.sessions.registry.update(child, { updatedAt: Date.now(), spawnedBy: A } as never);
    await s.say(A, 'list subagent');
    const listed = JSON.parse((await s.toolResults(A))[0]!.content) as { sessions: Array<{ sessionKey: string; spawnedBy?: string }> };
    expect(listed.sessions).toEqual([expect.objectContaining({ sessionKey: child, spawnedBy: A })]);
  });
});

describe('sessions_history and session_status', () => {
  it('leaves tool calls out unless asked, and reports model, tokens, context use and queue', async () => {
    const s = await start();
    await s.say(B, 'list');
    await s.say(A, `history ${B}`);
    await s.say(A, `history ${B} tools`);
    await s.say(A, 'status');
    const [plain, withTools, status] = (await s.toolResults(A)).map((r) => JSON.parse(r.content));
    expect(plain.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(withTools.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(withTools.messages[1].toolCalls).toEqual([{ tool: 'sessions_list', arguments: {} }]);
    expect(status).toMatchObject({
      sessionKey: A,
      model: 'fake/m',
      provider: 'fake',
      context: { window: 100_000 },
      queue: { running: true, queued: 0 },
      children: { running: 0, total: 0 },
    });
    expect(status.tokens.input).toBeGreaterThan(0);
    expect(status.context.used).toBeGreaterThan(0);
    expect(status.context.percent).toBe(Math.round((status.context.used / 100_000) * 100));
  });
});

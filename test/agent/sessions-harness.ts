import type { Core } from '../../source/core/index.js';
import type { FakeLlmServer, FakeReply, RecordedRequest } from '../support/fake-llm-common.js';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';

type WireMessage = { role: string; content: unknown };

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part === 'object' && part && 'text' in part ? String(part.text) : '')).join('');
  return '';
}

/** The instruction a turn answers: the last user message, without the sessions_send frame. */
function instruction(messages: readonly WireMessage[]): { last: WireMessage | undefined; words: string[] } {
  const last = messages[messages.length - 1];
  const user = [...messages].reverse().find((m) => m.role === 'user');
  const body = text(user?.content).replace(/^\[Message from session [^\]]*\]\n/, '');
  return { last, words: body.trim().split(/\s+/) };
}

/**
 * A fake model that follows the words of the message it answers, so several
 * sessions can talk at once in any order:
 *   `ask KEY REST…` → sessions_send REST to KEY and wait; `relay K1 K2 …` → send
 *   `relay K2 …` to K1 without waiting; `list`, `list all-kinds`, `history KEY`,
 *   `status [KEY]` → the tool; `answer TEXT` → TEXT. After a tool result it
 *   answers `got: <result>`.
 */
export function followWords(request: RecordedRequest): FakeReply {
  const { last, words } = instruction((request.body.messages ?? []) as WireMessage[]);
  if (last?.role === 'tool') return { text: `got: ${text(last.content)}` };
  const [verb, ...rest] = words;
  switch (verb) {
    case 'ask':
      return { toolCalls: [{ name: 'sessions_send', arguments: { sessionKey: rest[0]!, message: rest.slice(1).join(' '), timeoutSeconds: 20 } }] };
    case 'relay':
      if (rest.length === 0) return { text: 'end of the relay' };
      return { toolCalls: [{ name: 'sessions_send', arguments: { sessionKey: rest[0]!, message: ['relay', ...rest.slice(1)].join(' '), timeoutSeconds: 0 } }] };
    case 'list':
      return { toolCalls: [{ name: 'sessions_list', arguments: rest[0] ? { kind: rest[0] } : {} }] };
    case 'history':
      return { toolCalls: [{ name: 'sessions_history', arguments: { sessionKey: rest[0]!, ...(rest[1] === 'tools' ? { includeTools: true } : {}) } }] };
    case 'status':
      return { toolCalls: [{ name: 'session_status', arguments: rest[0] ? { sessionKey: rest[0] } : {} }] };
    case 'answer':
      return { text: rest.join(' ') };
    default:
      return { text: `unscripted: ${words.join(' ')}` };
  }
}

export interface SessionsGateway {
  gateway: TestGateway;
  llm: FakeLlmServer;
  /** Sends text to a session and waits until every lane is idle again. */
  say(sessionKey: string, text: string): Promise<void>;
  /** The tool results in a session's transcript, in order. */
  toolResults(sessionKey: string): Promise<Array<{ tool: string; isError: boolean; content: string }>>;
  /** The session's last assistant text. */
  lastReply(sessionKey: string): Promise<string>;
  stop(): Promise<void>;
}

export async function idle(core: Core, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let quietFor = 0;
  while (quietFor < 3) {
    if (Date.now() > deadline) throw new Error('the gateway did not become idle');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const busy = core.lanes.runningCount() > 0 || core.lanes.snapshot().lanes.some((lane) => lane.depth > 0);
    quietFor = busy ? 0 : quietFor + 1;
  }
}

/** A real gateway with the real agent runtime on a fake OpenAI-compatible model that follows `followWords`. */
export async function startSessionsGateway(config: Record<string, unknown> = {}): Promise<SessionsGateway> {
  const llm = await startFakeOpenAI();
  llm.setDefault(followWords);
  const gateway = await startTestGateway({
    config: {
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: { contextWindow: 100_000 }, w: {} } } } },
      agents: { defaults: { model: 'fake/m', heartbeat: { every: '0' } }, ...((config.agents as object | undefined) ?? {}) },
      ...Object.fromEntries(Object.entries(config).filter(([key]) => key !== 'agents')),
    },
    core: {},
  });
  const client = await gateway.connect();
  const entries = async (key: string) => (await gateway.core.sessions.registry.open(key)).entries();
  return {
    gateway,
    llm,
    async say(sessionKey, message) {
      await client.request('chat.send', { sessionKey, text: message });
      await idle(gateway.core);
    },
    async toolResults(sessionKey) {
      return (await entries(sessionKey)).flatMap((e) =>
        e.type === 'message' && e.role === 'toolResult' ? [{ tool: e.toolName, isError: e.isError, content: e.content }] : [],
      );
    },
    async lastReply(sessionKey) {
      const last = [...(await entries(sessionKey))].reverse().find((e) => e.type === 'message' && e.role === 'assistant');
      return last?.type === 'message' && last.role === 'assistant' ? last.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('') : '';
    },
    async stop() {
      client.close();
      await gateway.stop();
      await llm.close();
    },
  };
}

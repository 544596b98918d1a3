import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { agent, ndJsonStream, PROTOCOL_VERSION, RequestError } from '@agentclientprotocol/sdk';

/**
 * An ACP agent that does what a careless or hostile one would. Run with
 * `node --import tsx test/support/acp-hostile-agent.ts`; it writes its pid
 * and each prompt's task line to the files named by ACP_PID_FILE and ACP_PROMPTS_FILE.
 * With ACP_STUBBORN=1 it ignores SIGTERM and the end of its stdin, so only
 * SIGKILL ends it. By keyword in the prompt:
 * - "secrets": reads the gateway token and a file in home straight from
 *   disk, writes outside its workspace, and reports what it got;
 * - "inject": sends an update for another session before its own text;
 * - "refused": asks the client to read the gateway token and reports the error;
 * - "detail": asks permission for a command with its input, paths and a diff,
 *   and cancels its turn when denied;
 * - "flood N": streams N one-character chunks;
 * - "hang": never answers.
 * With ACP_AUTH_VAR set it refuses session/new until the client
 * authenticates with the env_var method naming that variable, as codex-acp does.
 */
const stubborn = process.env.ACP_STUBBORN === '1';
if (stubborn) {
  process.on('SIGTERM', () => undefined);
  // Holds the process open whatever happens to stdin.
  setInterval(() => undefined, 60_000);
}
if (process.env.ACP_PID_FILE) appendFileSync(process.env.ACP_PID_FILE, `${process.pid}\n`);

function attempt(what: () => string): string {
  try {
    return what();
  } catch (error) {
    return `failed (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
}

const authVar = process.env.ACP_AUTH_VAR;
let authenticated = !authVar;
// The env_var method is not in the SDK's stable types yet; codex-acp sends it.
const authMethods = authVar ? ([{ type: 'env_var', id: 'key', name: 'Use the key', vars: [{ name: authVar }] }] as unknown as []) : [];

const app = agent({ name: 'claw-hostile-acp-agent' })
  .onRequest('initialize', () => ({ protocolVersion: PROTOCOL_VERSION, agentCapabilities: { loadSession: false }, authMethods }))
  .onRequest('authenticate', ({ params }) => {
    if (params.methodId === 'key' && authVar && process.env[authVar]) authenticated = true;
    return {};
  })
  .onRequest('session/new', () => {
    if (!authenticated) throw RequestError.authRequired();
    return { sessionId: 'hostile-1' };
  })
  .onNotification('session/cancel', () => undefined)
  .onRequest('session/prompt', async ({ params, client }) => {
    const { sessionId } = params;
    const prompt = params.prompt.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
    if (process.env.ACP_PROMPTS_FILE) appendFileSync(process.env.ACP_PROMPTS_FILE, `${prompt.split('\n')[1] ?? prompt}\n`);
    const say = (text: string, id = sessionId) =>
      client.notify('session/update', { sessionId: id, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } });
    if (prompt.includes('hang')) return new Promise<never>(() => undefined);
    if (prompt.includes('secrets')) {
      const token = attempt(() => readFileSync(join(process.cwd(), '..', 'credentials', 'gateway-token'), 'utf8').trim());
      const home = attempt(() => readFileSync(join(process.env.HOME ?? '/', process.env.ACP_HOME_SECRET ?? 'none'), 'utf8').trim());
      const wrote = attempt(() => {
        writeFileSync(join(process.cwd(), '..', 'escaped-by-agent.txt'), 'out');
        return 'wrote';
      });
      await say(`token: ${token}; home: ${home}; outside write: ${wrote}`);
      return { stopReason: 'end_turn' as const };
    }
    if (prompt.includes('inject')) {
      await say('INJECTED into another session. ', 'somebody-else');
      await say('own text');
      return { stopReason: 'end_turn' as const };
    }
    if (prompt.includes('refused')) {
      const answer = await client.request('fs/read_text_file', { sessionId, path: '../credentials/gateway-token' }).then(
        (r) => `read ${r.content}`,
        (error: unknown) => `error: ${error instanceof Error ? error.message : JSON.stringify(error)}`,
      );
      await say(answer);
      return { stopReason: 'end_turn' as const };
    }
    if (prompt.includes('detail')) {
      const permission = await client.request('session/request_permission', {
        sessionId,
        toolCall: {
          toolCallId: 'c1',
          title: 'Run a command',
          kind: 'execute',
          rawInput: { command: ['bash', '-lc', 'rm -rf build && make'], cwd: '/work/project' },
          locations: [{ path: 'src/app.ts' }],
          content: [{ type: 'diff', path: 'src/app.ts', oldText: 'const a = 1;\n', newText: 'const a = 2;\n' }],
        },
        options: [
          { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
          { optionId: 'no', name: 'Reject', kind: 'reject_once' },
        ],
      });
      if (permission.outcome.outcome === 'selected' && permission.outcome.optionId === 'yes') {
        await say('ran it');
        return { stopReason: 'end_turn' as const };
      }
      return { stopReason: 'cancelled' as const };
    }
    const flood = /flood (\d+)/.exec(prompt);
    if (flood) {
      for (let i = 0; i < Number(flood[1]); i += 1) void say('x');
      await say('.');
      return { stopReason: 'end_turn' as const };
    }
    await say('nothing asked');
    return { stopReason: 'end_turn' as const };
  });

const connection = app.connect(
  ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>),
);
void connection.closed.then(() => {
  if (!stubborn) process.exit(0);
});

import { parseArgs } from 'node:util';
import { statePaths } from '../../config/index.js';
import { connectLocal } from '../../client/index.js';
import { startGatewayExplained } from '../start-gateway.js';
import { ClawError, type ChatEventPayload } from '../../protocol/index.js';
import type { CommandRun } from '../command.js';
import { clientName } from '../client-name.js';
import { printJson } from '../format.js';

const DEFAULT_SESSION = 'agent:main:main';

type Output = 'text' | 'json' | 'stream-json';
const OUTPUTS: readonly Output[] = ['text', 'json', 'stream-json'];

function parseAgentArgs(argv: readonly string[]): { message: string; session: string; output: Output } {
  const { values, positionals } = parseArgs({
    args: argv.slice(1),
    options: {
      message: { type: 'string', short: 'm' },
      session: { type: 'string', short: 's' },
      json: { type: 'boolean', default: false },
      output: { type: 'string', short: 'o' },
      port: { type: 'string' },
      bind: { type: 'string' },
    },
    allowPositionals: true,
    strict: false,
  });
  const message = typeof values.message === 'string' ? values.message : positionals.join(' ');
  if (!message.trim()) throw new ClawError('bad_request', `Nothing to send. Usage: ${USAGE}`);
  const output = typeof values.output === 'string' ? values.output : values.json === true ? 'json' : 'text';
  if (!(OUTPUTS as readonly string[]).includes(output))
    throw new ClawError('bad_request', `--output is one of ${OUTPUTS.join(', ')}, not "${output}". Usage: ${USAGE}`);
  return { message, session: typeof values.session === 'string' ? values.session : DEFAULT_SESSION, output: output as Output };
}

const USAGE = 'claw agent -m "your message" [--session KEY] [--json | --output text|json|stream-json]';

/** One event a line, for scripts and editors (`--output stream-json`). */
const emitLine = (event: Record<string, unknown>): void => {
  process.stdout.write(`${JSON.stringify(event)}\n`);
};

/**
 * `claw agent -m "…"`: one message through the gateway (started if needed),
 * the reply streamed to stdout as it arrives. Exit 0 on a reply, 1 when the
 * turn failed or was aborted.
 */
export const run: CommandRun = async ({ argv }) => {
  const { message, session, output } = parseAgentArgs(argv);
  const json = output !== 'text';
  const stream = output === 'stream-json';
  const paths = statePaths();
  await startGatewayExplained(paths);
  const client = await connectLocal(paths, { clientName: clientName('claw agent') });
  try {
    // Events can arrive before chat.send answers with the runId: keep them until then.
    const early: ChatEventPayload[] = [];
    let runId: string | undefined;
    let finish: (event: ChatEventPayload) => void = () => undefined;
    const ended = new Promise<ChatEventPayload>((resolve) => {
      finish = resolve;
    });
    const seen: ChatEventPayload[] = [];
    let streamed = false;
    const handle = (event: ChatEventPayload): void => {
      if (event.state === 'delta') {
        streamed = true;
        if (stream) emitLine({ type: 'delta', runId: event.runId, text: event.delta });
        else if (!json) process.stdout.write(event.delta);
        return;
      }
      // A command that started a turn (a skill): its own line goes to stderr, and the turn's answer is the reply.
      if (event.state === 'final' && event.continuedBy) {
        if (stream) emitLine({ type: 'command', runId: event.runId, text: event.text, continuedBy: event.continuedBy });
        else if (!json) process.stderr.write(`claw: ${event.text}\n`);
        runId = event.continuedBy;
        for (const earlier of seen.splice(0)) if (earlier.runId === runId) handle(earlier);
        return;
      }
      finish(event);
    };
    // A turn blocked on an exec approval would otherwise look like a hang.
    client.on('approval.requested', ({ approval }) => {
      if (approval.sessionKey !== session) return;
      if (stream) emitLine({ type: 'approval', id: approval.id, kind: approval.kind, command: approval.command, reason: approval.reason });
      process.stderr.write(
        `${json ? '' : '\n'}claw: waiting for approval ${approval.id} to run \`${approval.command}\` — answer in the TUI or with \`claw approvals approve ${approval.id}\` (or deny).\n`,
      );
    });
    // Retries can take minutes with a failing provider: say what is happening, on stderr so stdout stays the reply.
    client.on('agent', (event) => {
      if (stream && event.sessionKey === session && event.stream === 'tool' && (runId === undefined || event.runId === runId)) {
        const { stream: _kind, sessionKey: _key, ...tool } = event;
        emitLine({ type: 'tool', ...tool });
      }
      if (event.sessionKey !== session || event.stream !== 'retry' || (runId !== undefined && event.runId !== runId)) return;
      if (stream) {
        emitLine({ type: 'retry', runId: event.runId, model: event.model, reason: event.reason, delayMs: event.delayMs });
        return;
      }
      const wait = event.delayMs > 0 ? `, retrying in ${Math.ceil(event.delayMs / 1000)} s` : '';
      process.stderr.write(`${json ? '' : '\n'}claw: ${event.model}: ${event.reason}${wait}\n`);
    });
    client.on('chat', (event) => {
      if (event.sessionKey !== session) return;
      if (runId === undefined) early.push(event);
      else if (event.runId === runId) handle(event);
      // The turn a command will hand over to may start before the command's reply arrives.
      else if (seen.push(event) > 500) seen.shift();
    });
    const sent = await client.request('chat.send', { sessionKey: session, text: message });
    runId = sent.runId;
    for (const event of early.splice(0)) if (event.runId === runId) handle(event);
    const end = await ended;
    if (stream) emitLine({ type: end.state, ...Object.fromEntries(Object.entries(end).filter(([key]) => key !== 'state')) });
    else if (json) printJson(end);
    if (end.state === 'final') {
      // A slash command's reply arrives whole, with no deltas before it.
      const text = streamed ? '' : end.text;
      if (!json && !end.suppressed) process.stdout.write(`${text}${(streamed ? end.text : text).endsWith('\n') ? '' : '\n'}`);
      return 0;
    }
    if (!json) {
      const text =
        end.state === 'error'
          ? `claw: ${end.message}${end.hint ? `\n${end.hint}` : ''}`
          : `claw: the turn was aborted (${end.state === 'aborted' ? end.reason : 'no reason given'})`;
      process.stderr.write(`\n${text}\n`);
    }
    return 1;
  } finally {
    client.close();
  }
};

import { statePaths } from '../../config/index.js';
import { connectLocal, type GatewayClient } from '../../client/index.js';
import { queueModeName, type ChatEventPayload } from '../../protocol/index.js';
import type { CommandRun } from '../command.js';
import { clientName } from '../client-name.js';
import { printJson } from '../format.js';
import { positionals, stringFlag } from './flag-values.js';

const usage = 'Usage: claw message send --session KEY "text" [--mode steer|followup|collect|interrupt] [--timeout SECONDS] [--json]';

type Ending =
  | { state: 'final'; text: string; suppressed?: boolean }
  | { state: 'error'; message: string; hint?: string }
  | { state: 'aborted'; reason: string };

/**
 * Waits for the end of the run answering the watched runId, following it when
 * collect or steer merged the message into another message's run. Listens
 * before the message is sent: a fast run can end before its acknowledgement
 * arrives, so earlier events are kept and replayed on watch().
 */
function waitForEnding(client: GatewayClient, timeoutMs: number): { ending: Promise<Ending>; watch(runId: string): void; cancel(): void } {
  const watched = new Set<string>();
  const early: ChatEventPayload[] = [];
  const merges: Array<[string, string]> = [];
  let settle: (ending: Ending) => void = () => undefined;
  const onChat = (payload: ChatEventPayload): void => {
    if (!watched.has(payload.runId)) {
      early.push(payload);
      return;
    }
    // A command that started a turn (a skill) hands over to it: the turn's answer is the reply.
    if (payload.state === 'final' && payload.continuedBy) {
      watched.add(payload.continuedBy);
      follow();
      return;
    }
    if (payload.state === 'final') settle({ state: 'final', text: payload.text, ...(payload.suppressed ? { suppressed: true } : {}) });
    else if (payload.state === 'error') settle({ state: 'error', message: payload.message, ...(payload.hint ? { hint: payload.hint } : {}) });
    else if (payload.state === 'aborted') settle({ state: 'aborted', reason: payload.reason });
  };
  const offChat = client.on('chat', onChat);
  const follow = (): void => {
    for (const [from, to] of merges) if (watched.has(from)) watched.add(to);
    for (const event of early.splice(0)) onChat(event);
  };
  const offAgent = client.on('agent', (payload) => {
    const merged = payload.stream === 'lifecycle' ? /^merged into run (\S+)$/.exec(payload.detail ?? '') : null;
    if (!merged?.[1]) return;
    merges.push([payload.runId, merged[1]]);
    follow();
  });
  let timer: NodeJS.Timeout | undefined;
  const ending = new Promise<Ending>((resolve, reject) => {
    settle = resolve;
    timer = setTimeout(
      () =>
        reject(
          new Error(`No reply within ${Math.round(timeoutMs / 1000)} s; the message is still queued or running. Watch it with \`claw\` or raise --timeout.`),
        ),
      timeoutMs,
    );
  });
  return {
    ending,
    watch(runId) {
      watched.add(runId);
      follow();
    },
    cancel() {
      clearTimeout(timer);
      offChat();
      offAgent();
    },
  };
}

/** `claw message send --session KEY "text"`: sends through the gateway and prints the reply or the failure. */
export const run: CommandRun = async ({ argv, flags }) => {
  const words = positionals(argv, ['session', 'mode', 'timeout']);
  const [, action, ...textWords] = words;
  const sessionKey = stringFlag(argv, 'session');
  const text = textWords.join(' ');
  if (action !== 'send' || !sessionKey || !text) {
    process.stderr.write(
      `claw message: ${action !== 'send' ? 'the only action is "send"' : !sessionKey ? '--session KEY is required' : 'no text to send'}.\n${usage}\n`,
    );
    return 2;
  }
  const modeText = stringFlag(argv, 'mode');
  const mode = modeText === undefined ? undefined : queueModeName.safeParse(modeText);
  if (mode && !mode.success) {
    process.stderr.write(`claw message: --mode must be one of ${queueModeName.options.join(', ')}.\n`);
    return 2;
  }
  const timeoutSeconds = Number(stringFlag(argv, 'timeout') ?? 600);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
    process.stderr.write('claw message: --timeout takes a number of seconds.\n');
    return 2;
  }
  const client = await connectLocal(statePaths(), { clientName: clientName('claw message') });
  try {
    const waiter = waitForEnding(client, timeoutSeconds * 1000);
    try {
      const sent = await client.request('chat.send', { sessionKey, text, ...(mode?.success ? { queueMode: mode.data } : {}) });
      if (sent.status === 'dropped') {
        if (flags.json) printJson(sent);
        else process.stderr.write('claw: the session queue is full; the message was dropped. Try again when the session catches up.\n');
        return 1;
      }
      waiter.watch(sent.runId);
      const ending = await waiter.ending;
      if (flags.json) printJson({ ...sent, ...ending });
      else if (ending.state === 'final') process.stdout.write(`${ending.suppressed ? '(no reply)' : ending.text}\n`);
      else if (ending.state === 'error') process.stderr.write(`claw: ${ending.message}\n${ending.hint ? `${ending.hint}\n` : ''}`);
      else process.stderr.write(`claw: the run was aborted: ${ending.reason}\n`);
      return ending.state === 'final' ? 0 : 1;
    } finally {
      waiter.cancel();
    }
  } finally {
    client.close();
  }
};

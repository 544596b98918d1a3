import { afterEach, describe, expect, it } from 'vitest';
import { alice, aliceChat, sentTo, startTelegramRig, type TelegramRig } from '../channels/telegram-harness.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import type { RecordedRequest } from '../support/fake-llm-common.js';
import { calledSince, childReply, entriesOf, isChildRequest, lastUserText, waitFor } from './subagents-harness.js';

const TELEGRAM_PARENT = 'agent:main:telegram:direct:4001';
const TUI_PARENT = 'agent:main:main';

let rig: TelegramRig | undefined;
let llm: FakeLlmServer | undefined;
afterEach(async () => {
  await rig?.stop();
  await llm?.close();
  rig = undefined;
  llm = undefined;
});

/** The parent spawns one child named in the user's text, says it is on it, and answers the child's result with a summary. */
function script(request: RecordedRequest) {
  if (isChildRequest(request)) return childReply(request);
  const user = lastUserText(request);
  const found = /finding about (\w+)/.exec(user);
  if (user.includes('[subagent_result]')) return { text: `Summary: ${found?.[1] ?? 'nothing'} checked.` };
  const label = /research (\w+)/.exec(user)?.[1] ?? 'x';
  if (!calledSince(request, 'sessions_spawn')) return { toolCalls: [{ name: 'sessions_spawn', arguments: { task: `look into ${label}`, label } }] };
  return { text: `On it: ${label}.` };
}

async function startRig(): Promise<TelegramRig> {
  llm = await startFakeOpenAI();
  llm.setDefault(script);
  rig = await startTelegramRig({
    account: { dmPolicy: 'allowlist', allowFrom: ['4001'], streaming: 'off' },
    config: {
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
      agents: { defaults: { model: 'fake/m', heartbeat: { every: '0' } } },
    },
  });
  return rig;
}

describe("a parent's answer to its children's results", () => {
  it('goes to the Telegram chat the parent was asked in, through the durable delivery path', async () => {
    const r = await startRig();
    r.telegram.pushMessage(aliceChat, alice, 'please research tides');
    await r.telegram.waitFor((c) => c.method === 'sendMessage' && c.params.text === 'On it: tides.');
    await r.telegram.waitFor((c) => c.method === 'sendMessage' && c.params.text === 'Summary: tides checked.', 20_000);
    expect(sentTo(r.telegram, alice.id)).toEqual(['On it: tides.', 'Summary: tides checked.']);

    const [node] = r.gateway.core.subagents.list(TELEGRAM_PARENT);
    expect(node).toMatchObject({ label: 'tides', status: 'done' });
    // The announce was journaled with the chat's route, and its reply marked delivered in the transcript as any Telegram reply is.
    const entries = await waitFor('the delivery mark', async () => {
      const all = await entriesOf(r.gateway.core, TELEGRAM_PARENT);
      return all.some(
        (e) => e.type === 'custom' && e.customType === 'reply_delivered' && String((e.data as { messageId: string }).messageId).startsWith('subagent_result:'),
      )
        ? all
        : undefined;
    });
    const marks = entries.flatMap((e) => (e.type === 'custom' && e.customType === 'reply_delivered' ? [e.data as { messageId: string; channel: string }] : []));
    // One for the first answer, one for the answer to the result; both on the Telegram channel.
    expect(marks).toHaveLength(2);
    expect(marks[1]).toMatchObject({ messageId: `subagent_result:${node!.runId}`, channel: 'telegram' });
    expect(marks[0]!.channel).toBe('telegram');
  });

  it('stays with the clients when the parent was asked in the TUI: nothing goes to a chat', async () => {
    const r = await startRig();
    const client = await r.gateway.connect();
    await client.request('chat.send', { sessionKey: TUI_PARENT, text: 'please research dunes' });
    await waitFor(
      'the summary in the TUI session',
      async () => {
        const all = await entriesOf(r.gateway.core, TUI_PARENT);
        return all.some((e) => e.type === 'message' && e.role === 'assistant' && JSON.stringify(e.content).includes('Summary: dunes checked.')) || undefined;
      },
      20_000,
    );
    client.close();
    expect(r.telegram.callsOf('sendMessage')).toEqual([]);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import type { TurnContext, TurnOutcome } from '../../source/queue/index.js';
import { renderTelegram } from '../../source/markdown/index.js';
import { alice, aliceChat, startTelegramRig, type TelegramRig } from './telegram-harness.js';

let rig: TelegramRig | undefined;
afterEach(async () => {
  await rig?.stop();
  rig = undefined;
});

/** Streams `words` one every 50 ms, then answers with all of them. */
function streamingRunner(words: string[]) {
  return {
    async run(turn: TurnContext): Promise<TurnOutcome> {
      for (const word of words) {
        turn.emit('chat', { runId: turn.runId, sessionKey: turn.sessionKey, state: 'delta', delta: `${word} ` });
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const text = words.join(' ');
      turn.session.append({ type: 'message', role: 'assistant', content: [{ type: 'text', text }], stopReason: 'stop' });
      turn.emit('chat', { runId: turn.runId, sessionKey: turn.sessionKey, state: 'final', text });
      return { status: 'replied', text };
    },
  };
}

describe('streaming replies to Telegram', () => {
  it('shows the reply as it streams, editing one message at most once per second, and ends with the whole text', async () => {
    const words = Array.from({ length: 50 }, (_, i) => `w${i}`);
    rig = await startTelegramRig({ account: { dmPolicy: 'open' }, core: { runner: streamingRunner(words) } });
    const { telegram } = rig;
    telegram.pushMessage(aliceChat, alice, 'stream please');
    const final = words.join(' ');
    await telegram.waitFor((c) => c.method === 'editMessageText' && c.params.text === final, 15_000);
    const sends = telegram.callsOf('sendMessage');
    expect(sends).toHaveLength(1);
    const edits = telegram.callsOf('editMessageText');
    expect(edits.length).toBeGreaterThanOrEqual(2);
    const times = [sends[0]!.at, ...edits.map((e) => e.at)];
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(900);
    expect(edits.every((e) => e.params.message_id === edits[0]!.params.message_id)).toBe(true);
  });

  it('a long reply streams as one edited preview, then its further parts are sent exactly once', async () => {
    const code = Array.from({ length: 260 }, (_, i) => `<item id="${i}">&amp; value ${i}</item>`).join('\n');
    const reply = `Here is the file:\n\n\`\`\`xml\n${code}\n\`\`\`\n\nThat is all.`;
    const pieces = reply.match(/[\s\S]{1,400}/g) ?? [];
    const runner = {
      async run(turn: TurnContext): Promise<TurnOutcome> {
        for (const delta of pieces) {
          turn.emit('chat', { runId: turn.runId, sessionKey: turn.sessionKey, state: 'delta', delta });
          await new Promise((resolve) => setTimeout(resolve, 40));
        }
        turn.session.append({ type: 'message', role: 'assistant', content: [{ type: 'text', text: reply }], stopReason: 'stop' });
        turn.emit('chat', { runId: turn.runId, sessionKey: turn.sessionKey, state: 'final', text: reply });
        return { status: 'replied', text: reply };
      },
    };
    rig = await startTelegramRig({ account: { dmPolicy: 'open' }, core: { runner } });
    const { telegram } = rig;
    telegram.pushMessage(aliceChat, alice, 'the file please');
    const parts = renderTelegram(reply);
    expect(parts.length).toBeGreaterThan(2);
    await telegram.waitFor((c) => c.method === 'sendMessage' && c.params.text === parts.at(-1), 20_000);
    // Let a stray late preview flush show itself before counting.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(telegram.refusals).toEqual([]);
    const sends = telegram.callsOf('sendMessage');
    expect(sends.map((call) => call.params.text)).toEqual([sends[0]!.params.text, ...parts.slice(1)]);
    const edits = telegram.callsOf('editMessageText');
    expect(edits.at(-1)!.params.text).toBe(parts[0]);
    expect(new Set(edits.map((e) => e.params.message_id)).size).toBe(1);
  });

  it('sends the reply whole when streaming is off', async () => {
    rig = await startTelegramRig({ account: { dmPolicy: 'open', streaming: 'off' }, core: { runner: streamingRunner(['a', 'b', 'c']) } });
    const { telegram } = rig;
    telegram.pushMessage(aliceChat, alice, 'no stream');
    await telegram.waitFor((c) => c.method === 'sendMessage' && c.params.text === 'a b c');
    expect(telegram.callsOf('editMessageText')).toHaveLength(0);
    expect(telegram.callsOf('sendMessage')).toHaveLength(1);
  });
});

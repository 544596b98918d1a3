import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { echoRunner } from '../../source/queue/index.js';
import type { FakeChat } from '../support/fake-telegram.js';
import { alice, aliceChat, bob, sentTo, startTelegramRig, type TelegramRig } from './telegram-harness.js';

const group: FakeChat = { id: -100500, type: 'supergroup', title: 'Team', is_forum: true };
const stranger: FakeChat = { id: -100999, type: 'supergroup', title: 'Elsewhere' };

let rig: TelegramRig | undefined;
afterEach(async () => {
  await rig?.stop();
  rig = undefined;
});

describe('telegram groups and media', () => {
  it('answers an allowlisted group only when mentioned or replied to; a forum topic is its own session', async () => {
    rig = await startTelegramRig({ account: { groups: { '-100500': {} } }, core: { runner: echoRunner } });
    const { telegram, gateway } = rig;
    const accepted: string[] = [];
    const client = await gateway.connect();
    client.on('message.accepted', (payload) => accepted.push(`${payload.sessionKey} ${payload.text}`));
    telegram.pushMessage(group, alice, 'just chatting');
    telegram.pushMessage(stranger, alice, '@claw_test_bot hello from a group not listed');
    telegram.pushMessage(group, bob, '@claw_test_bot what time is it?');
    telegram.pushMessage(group, alice, 'and you?', { replyToBot: true });
    telegram.pushMessage(group, alice, '@claw_test_bot in the topic', { threadId: 7 });
    await expect.poll(() => accepted.length, { timeout: 5000 }).toBe(3);
    expect(accepted).toEqual([
      'agent:main:telegram:group:-100500 what time is it?',
      'agent:main:telegram:group:-100500 [replying to your earlier message: "earlier"]\nand you?',
      'agent:main:telegram:group:-100500:thread:7 in the topic',
    ]);
    const topicReply = await telegram.waitFor((c) => c.method === 'sendMessage' && c.params.text === 'echo: in the topic');
    expect(Number(topicReply.params.chat_id)).toBe(group.id);
    expect(Number(topicReply.params.message_thread_id)).toBe(7);
    await expect.poll(() => sentTo(telegram, group.id).length).toBe(3);
    expect(sentTo(telegram, stranger.id)).toEqual([]);
  });

  it('saves photos and voice notes under the workspace inbox/ and names them in the message', async () => {
    rig = await startTelegramRig({ account: { dmPolicy: 'open' }, core: { runner: echoRunner } });
    const { telegram, state } = rig;
    telegram.pushMessage(aliceChat, alice, 'look at this', { photo: { fileId: 'ph1', bytes: Buffer.from('JPEGDATA') } });
    telegram.pushMessage(aliceChat, alice, '', { voice: { fileId: 'vo1', bytes: Buffer.from('OGGDATA') } });
    await expect.poll(() => sentTo(telegram, alice.id).length, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
    const [photoReply, voiceReply] = sentTo(telegram, alice.id);
    expect(photoReply).toMatch(/^echo: look at this\n\[photo saved: inbox\/4001-\d+-photo-\d+\.jpg\]$/);
    expect(voiceReply).toMatch(/\[voice saved: inbox\/.*\.ogg, a voice message, \d+ s — transcription is not configured/);
    const photoPath = join(state.paths.workspace('main'), /inbox\/\S+\.jpg/.exec(photoReply!)![0]);
    expect(existsSync(photoPath)).toBe(true);
    expect(readFileSync(photoPath, 'utf8')).toBe('JPEGDATA');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { echoRunner } from '../../source/queue/index.js';
import type { FakeChat, FakeUser } from '../support/fake-telegram.js';
import { alice, aliceChat, bob, sentTo, startTelegramRig, type TelegramRig } from './telegram-harness.js';

// Update shapes as the Bot API reference writes them (Message, MessageOrigin, TextQuote, MessageEntity …).
const team: FakeChat = { id: -100500, type: 'supergroup', title: 'Team', is_forum: true };
const BOT: FakeUser = { id: 777000, first_name: 'Claw Test', username: 'claw_test_bot', is_bot: true };
const ANONYMOUS: FakeUser = { id: 1087968824, first_name: 'Group', username: 'GroupAnonymousBot', is_bot: true };

let rig: TelegramRig | undefined;
afterEach(async () => {
  await rig?.stop();
  rig = undefined;
});

/** Sends one message and waits for its answer, so each is its own turn (queued ones would be collected into one). */
async function answered(telegram: TelegramRig['telegram'], push: () => void): Promise<void> {
  const before = sentTo(telegram, alice.id).length;
  push();
  await expect.poll(() => sentTo(telegram, alice.id).length, { timeout: 8000 }).toBe(before + 1);
}

const dmRig = (account: Record<string, unknown> = {}) => startTelegramRig({ account: { dmPolicy: 'open', ...account }, core: { runner: echoRunner } });

describe('every message from an allowed sender gets a visible outcome', () => {
  it('locations, venues, contacts, polls, dice, stickers and round videos reach the model as text; stories get an answer', async () => {
    rig = await dmRig();
    const { telegram } = rig;
    await answered(telegram, () =>
      telegram.pushMessage(aliceChat, alice, '', { extra: { text: undefined, location: { latitude: 52.52, longitude: 13.405 } } }),
    );
    await answered(telegram, () =>
      telegram.pushMessage(aliceChat, alice, '', {
        extra: { text: undefined, venue: { location: { latitude: 48.8584, longitude: 2.2945 }, title: 'Eiffel Tower', address: 'Champ de Mars' } },
      }),
    );
    await answered(telegram, () =>
      telegram.pushMessage(aliceChat, alice, '', { extra: { text: undefined, contact: { phone_number: '+4930123', first_name: 'Carol', user_id: 5005 } } }),
    );
    await answered(telegram, () =>
      telegram.pushMessage(aliceChat, alice, '', {
        extra: {
          text: undefined,
          poll: {
            id: 'p1',
            question: 'Lunch?',
            options: [
              { text: 'Pizza', voter_count: 0 },
              { text: 'Sushi', voter_count: 0 },
            ],
            total_voter_count: 0,
            is_closed: false,
            is_anonymous: true,
            type: 'regular',
            allows_multiple_answers: false,
          },
        },
      }),
    );
    await answered(telegram, () => telegram.pushMessage(aliceChat, alice, '', { extra: { text: undefined, dice: { emoji: '🎲', value: 4 } } }));
    await answered(telegram, () =>
      telegram.pushMessage(aliceChat, alice, '', {
        extra: {
          text: undefined,
          sticker: {
            file_id: 'st1',
            file_unique_id: 'ust1',
            type: 'regular',
            width: 512,
            height: 512,
            is_animated: false,
            is_video: false,
            emoji: '👍',
            set_name: 'Hands',
          },
        },
      }),
    );
    await answered(telegram, () => telegram.pushMessage(aliceChat, alice, '', { extra: { text: undefined, story: { chat: aliceChat, id: 3 } } }));
    expect(sentTo(telegram, alice.id)).toEqual([
      'echo: [location: 52.52, 13.405]',
      'echo: [venue: Eiffel Tower, Champ de Mars (48.8584, 2.2945)]',
      'echo: [contact: Carol, +4930123, Telegram user 5005]',
      'echo: [poll: "Lunch?" — options: Pizza / Sushi]',
      'echo: [dice 🎲: rolled 4]',
      'echo: [sticker 👍 from the set Hands]',
      "I can't read stories yet; send it as text or a file.",
    ]);
  });

  it('keeps the context the sender meant: link targets, forwards, replies and quotes', async () => {
    rig = await dmRig();
    const { telegram } = rig;
    await answered(telegram, () =>
      telegram.pushMessage(aliceChat, alice, 'see the docs', {
        extra: { entities: [{ type: 'text_link', offset: 8, length: 4, url: 'https://docs.example.com/x' }] },
      }),
    );
    await answered(telegram, () =>
      telegram.pushMessage(aliceChat, alice, 'meet at 5am', {
        extra: { forward_origin: { type: 'user', date: 1, sender_user: { id: 4002, is_bot: false, first_name: 'Bob', username: 'bob' } } },
      }),
    );
    await answered(telegram, () =>
      telegram.pushMessage(aliceChat, alice, 'no, Tuesday', {
        extra: {
          reply_to_message: { message_id: 42, date: 1, chat: aliceChat, from: BOT, text: 'Shall we meet on Monday at noon?' },
          quote: { text: 'Monday', position: 15, is_manual: true },
        },
      }),
    );
    const [link, forward, quote] = sentTo(telegram, alice.id);
    expect(link).toBe('echo: see the docs (https://docs.example.com/x)');
    // Forwarded words are fenced as outside text: the sender passed them on, they did not write them.
    expect(forward).toMatch(
      /^echo: \[forwarded from Bob \(@bob\)\]\n<untrusted_content nonce="\w+" source="telegram" forwarded_from="Bob \(@bob\)">\nmeet at 5am\n<\/untrusted_content/,
    );
    expect(quote).toBe('echo: [quoting your earlier message: "Monday"]\nno, Tuesday');
  });

  it('an album is one message with all its files, answered once — in a group the mention in the caption covers every part', async () => {
    rig = await startTelegramRig({ account: { dmPolicy: 'open', groups: { '-100500': {} } }, core: { runner: echoRunner } });
    const { telegram } = rig;
    for (const [i, chat] of [aliceChat, aliceChat, aliceChat, team, team].entries()) {
      const caption = i === 0 ? 'three photos' : i === 3 ? '@claw_test_bot two photos' : '';
      telegram.pushMessage(chat, alice, caption, {
        photo: { fileId: `ph${i}`, bytes: Buffer.from(`JPEG${i}`) },
        extra: { media_group_id: chat === team ? 'g2' : 'g1' },
      });
    }
    await expect.poll(() => sentTo(telegram, alice.id).length + sentTo(telegram, team.id).length, { timeout: 8000 }).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const [dm] = sentTo(telegram, alice.id);
    expect(sentTo(telegram, alice.id)).toHaveLength(1);
    expect(dm?.match(/\[photo saved: /g)).toHaveLength(3);
    expect(dm).toMatch(/^echo: three photos\n/);
    expect(sentTo(telegram, team.id)).toHaveLength(1);
    expect(sentTo(telegram, team.id)[0]?.match(/\[photo saved: /g)).toHaveLength(2);
  });

  it('an edit made before the bot read the message replaces it; a later edit is a new turn marked edited, or a note with edits: ignore', async () => {
    rig = await dmRig();
    const { telegram } = rig;
    telegram.pushMessage(aliceChat, alice, 'meet at 5am', { extra: { message_id: 9001 } });
    telegram.pushEdit(aliceChat, alice, 9001, 'meet at 5pm');
    await expect.poll(() => sentTo(telegram, alice.id).length, { timeout: 8000 }).toBe(1);
    expect(sentTo(telegram, alice.id)).toEqual(['echo: meet at 5pm']);
    telegram.pushEdit(aliceChat, alice, 9001, 'meet at 6pm');
    await expect.poll(() => sentTo(telegram, alice.id).length, { timeout: 8000 }).toBe(2);
    expect(sentTo(telegram, alice.id)[1]).toBe('echo: [the sender edited an earlier message; this is its new text]\nmeet at 6pm');
  });

  it('with edits: ignore, a late edit gets a note instead of a turn', async () => {
    rig = await dmRig({ edits: 'ignore' });
    const { telegram } = rig;
    telegram.pushMessage(aliceChat, alice, 'first', { extra: { message_id: 9101 } });
    await expect.poll(() => sentTo(telegram, alice.id).length, { timeout: 8000 }).toBe(1);
    telegram.pushEdit(aliceChat, alice, 9101, 'first, corrected');
    await expect.poll(() => sentTo(telegram, alice.id).length, { timeout: 8000 }).toBe(2);
    expect(sentTo(telegram, alice.id)[1]).toMatch(/^I saw your edit/);
  });
});

describe('groups as Telegram runs them', () => {
  it('/cmd@this_bot is a command everywhere, /cmd@other_bot is not ours; a topic’s first message is not a mention', async () => {
    rig = await startTelegramRig({ account: { dmPolicy: 'open', groups: { '-100500': {} } }, core: { runner: echoRunner } });
    const { telegram, gateway } = rig;
    const accepted: string[] = [];
    const client = await gateway.connect();
    client.on('message.accepted', (payload) => accepted.push(payload.text));
    telegram.pushMessage(aliceChat, alice, '/model@claw_test_bot');
    telegram.pushMessage(team, alice, '/status@other_bot');
    telegram.pushMessage(team, alice, 'talking in the topic', {
      threadId: 9,
      extra: { reply_to_message: { message_id: 9, date: 1, chat: team, from: BOT, forum_topic_created: { name: 'Ops', icon_color: 7322096 } } },
    });
    telegram.pushMessage(team, bob, '@claw_test_bot here');
    await expect.poll(() => sentTo(telegram, team.id).length, { timeout: 8000 }).toBe(1);
    await expect.poll(() => sentTo(telegram, alice.id).length, { timeout: 8000 }).toBe(1);
    expect(sentTo(telegram, alice.id)[0]).not.toContain('@claw_test_bot');
    expect(sentTo(telegram, alice.id)[0]).not.toMatch(/^echo:/);
    expect(sentTo(telegram, team.id)).toEqual(['echo: here']);
    const { channels } = await client.request('channels.status', {});
    expect(channels[0]).toMatchObject({ ignored: { 'command for another bot': 1, 'not mentioned': 1 } });
    expect(channels[0]!.handled).toBeGreaterThanOrEqual(1);
  });

  it('anonymous admins count only where allowAnonymousAdmins says so', async () => {
    rig = await startTelegramRig({
      account: { groups: { '-100500': { requireMention: false, allowAnonymousAdmins: true }, '-100600': { requireMention: false } } },
      core: { runner: echoRunner },
    });
    const { telegram } = rig;
    const other: FakeChat = { id: -100600, type: 'supergroup', title: 'Other' };
    telegram.pushMessage(team, ANONYMOUS, 'from the admins', { extra: { sender_chat: team } });
    telegram.pushMessage(other, ANONYMOUS, 'not here', { extra: { sender_chat: other } });
    await expect.poll(() => sentTo(telegram, team.id).length, { timeout: 8000 }).toBe(1);
    expect(sentTo(telegram, team.id)).toEqual(['echo: from the admins']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sentTo(telegram, other.id)).toEqual([]);
  });

  it('a group upgraded to a supergroup keeps its settings under the new id', async () => {
    const old: FakeChat = { id: -4005, type: 'group', title: 'Family' };
    const upgraded: FakeChat = { id: -1001234, type: 'supergroup', title: 'Family' };
    rig = await startTelegramRig({ account: { groups: { '-4005': { requireMention: false } } }, core: { runner: echoRunner } });
    const { telegram } = rig;
    telegram.pushMessage(old, alice, '', { extra: { text: undefined, migrate_to_chat_id: upgraded.id } });
    telegram.pushMessage(upgraded, alice, '', { extra: { text: undefined, migrate_from_chat_id: old.id } });
    telegram.pushMessage(upgraded, alice, 'still there?');
    await expect.poll(() => sentTo(telegram, upgraded.id).length, { timeout: 8000 }).toBe(1);
    expect(sentTo(telegram, upgraded.id)).toEqual(['echo: still there?']);

    // A reply still addressed to the old id follows Telegram's answer to the new one.
    telegram.failNext('sendMessage', { code: 400, description: 'Bad Request: group chat was upgraded to a supergroup chat', migrateTo: upgraded.id });
    telegram.pushMessage(old, alice, 'sent before the upgrade reached us');
    await expect.poll(() => sentTo(telegram, upgraded.id).length, { timeout: 8000 }).toBe(2);
    expect(sentTo(telegram, upgraded.id)[1]).toBe('echo: sent before the upgrade reached us');
  });
});

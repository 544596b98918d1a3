import { afterEach, describe, expect, it } from 'vitest';
import { echoRunner } from '../../source/queue/index.js';
import { aliceChat, alice, bob, bobChat, sentTo, startTelegramRig, type TelegramRig } from './telegram-harness.js';

let rig: TelegramRig | undefined;
afterEach(async () => {
  await rig?.stop();
  rig = undefined;
});

describe('telegram pairing', () => {
  it('gives an unknown sender a code, tells them on approval, and then answers them in the same chat', async () => {
    rig = await startTelegramRig({ core: { runner: echoRunner } });
    const { telegram, gateway } = rig;
    const client = await gateway.connect();
    const notices: string[] = [];
    client.on('pairing.requested', (payload) => notices.push(payload.notice));
    telegram.pushMessage(aliceChat, alice, 'hello?');
    const codeMessage = await telegram.waitFor((c) => c.method === 'sendMessage' && Number(c.params.chat_id) === alice.id);
    const code = /code is ([A-Z0-9]{8})/.exec(String(codeMessage.params.text))?.[1];
    expect(code).toBeDefined();
    const listed = await client.request('pairing.list', {});
    expect(listed.pending.map((p) => p.code)).toEqual([code]);
    expect(listed.pending[0]!.expiresAt - listed.pending[0]!.createdAt).toBe(60 * 60_000);
    await expect.poll(() => notices.length).toBe(1);
    expect(notices[0]).toContain(code);
    // The message that asked is not an inbound message: nothing was answered.
    expect(sentTo(telegram, alice.id)).toHaveLength(1);

    const approved = await client.request('pairing.approve', { code: code! });
    expect(approved.told).toBe(true);
    // Pairing adds a contact: it never makes an owner by itself.
    expect(approved.approved.owner).toBe(false);
    expect(sentTo(telegram, alice.id)[1]).toMatch(/paired/);

    telegram.pushMessage(aliceChat, alice, 'what is 2+2?');
    await telegram.waitFor((c) => c.method === 'sendMessage' && String(c.params.text).includes('echo: what is 2+2?'));
    expect(sentTo(telegram, alice.id).at(-1)).toBe('echo: what is 2+2?');

    // Only --owner makes an owner; an unknown code is refused with the pending ones.
    telegram.pushMessage(bobChat, bob, 'hi');
    const bobCode = /code is ([A-Z0-9]{8})/.exec(
      String((await telegram.waitFor((c) => c.method === 'sendMessage' && Number(c.params.chat_id) === bob.id)).params.text),
    )?.[1];
    await expect(client.request('pairing.approve', { code: 'NOPE2345' })).rejects.toThrow(new RegExp(`pending: ${bobCode}`));
    const second = await client.request('pairing.approve', { code: bobCode!, owner: true });
    expect(second.approved.owner).toBe(true);
    const [status] = (await client.request('channels.status', {})).channels;
    expect(status?.owner).toBe(String(bob.id));
  });

  it('pairing a friend never changes the owner the operator named (allowFrom[0], or owner)', async () => {
    rig = await startTelegramRig({ account: { allowFrom: [String(alice.id)] }, core: { runner: echoRunner } });
    const { telegram, gateway } = rig;
    const client = await gateway.connect();
    telegram.pushMessage(bobChat, bob, 'hi, I am a friend');
    const asked = await telegram.waitFor((c) => c.method === 'sendMessage' && Number(c.params.chat_id) === bob.id);
    const code = /code is ([A-Z0-9]{8})/.exec(String(asked.params.text))![1]!;
    const approved = await client.request('pairing.approve', { code });
    expect(approved.approved.owner).toBe(false);
    expect((await client.request('channels.status', {})).channels[0]?.owner).toBe(String(alice.id));
    // Bob may talk now, as a contact.
    telegram.pushMessage(bobChat, bob, 'thanks');
    await telegram.waitFor((c) => c.method === 'sendMessage' && c.params.text === 'echo: thanks');
  });
});

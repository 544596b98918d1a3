import { afterEach, describe, expect, it } from 'vitest';
import { createScopedToken } from '../../source/config/index.js';
import { echoRunner } from '../../source/queue/index.js';
import type { FakeChat, FakeUser } from '../support/fake-telegram.js';
import { alice, aliceChat, bob, bobChat, sentTo, startTelegramRig, type TelegramRig } from './telegram-harness.js';

const carol: FakeUser = { id: 4003, first_name: 'Carol' };
const team: FakeChat = { id: -100800, type: 'supergroup', title: 'Team' };

let rig: TelegramRig | undefined;
afterEach(async () => {
  await rig?.stop();
  rig = undefined;
});

const codeIn = (text: string): string => /code is ([A-Z0-9]{8})/.exec(text)?.[1] ?? '';

describe('/pairing in the command registry', () => {
  it('lists pending codes, completes them through commands.list, approves and rejects; only admin callers and the owner may list or answer', async () => {
    rig = await startTelegramRig({ account: { groups: { [String(team.id)]: { requireMention: false } } }, core: { runner: echoRunner } });
    const { telegram, gateway } = rig;
    const client = await gateway.connect();
    const key = 'agent:main:main';
    expect((await client.request('commands.run', { sessionKey: key, text: '/pairing' })).reply).toBe('No pairing code is waiting for an answer.');

    telegram.pushMessage(aliceChat, alice, 'hello?');
    telegram.pushMessage(bobChat, bob, 'me too');
    await expect.poll(() => sentTo(telegram, alice.id).length + sentTo(telegram, bob.id).length, { timeout: 5000 }).toBe(2);
    const aliceCode = codeIn(sentTo(telegram, alice.id)[0]!);
    const bobCode = codeIn(sentTo(telegram, bob.id)[0]!);

    const { commands } = await client.request('commands.list', {});
    const pairing = commands.find((c) => c.name === 'pairing');
    expect(pairing?.arguments?.[0]?.values?.map((v) => v.value)).toEqual(['approve', 'reject']);
    expect(pairing?.arguments?.[1]?.values?.map((v) => v.value).sort()).toEqual([aliceCode, bobCode].sort());
    expect(pairing?.arguments?.[1]?.values?.find((v) => v.value === aliceCode)?.description).toContain('@alice');

    const listed = await client.request('commands.run', { sessionKey: key, text: '/pairing' });
    expect(listed.reply).toContain(`${aliceCode}  @alice (telegram:default, id 4001)`);
    expect(listed.reply).toContain(bobCode);

    // A client whose token is not admin may neither list the codes nor answer them.
    const { token } = createScopedToken(gateway.state.paths, ['write']);
    const writer = await gateway.connect({ token });
    for (const text of ['/pairing', `/pairing approve ${bobCode}`]) {
      await expect(writer.request('commands.run', { sessionKey: key, text })).rejects.toThrow(/\/pairing is for the owner of this assistant only/);
    }

    const approved = await client.request('commands.run', { sessionKey: key, text: `/pairing approve ${aliceCode.toLowerCase()} --owner` });
    expect(approved.reply).toMatch(/^Approved @alice .* as the owner; they were told in their chat\.$/);
    await expect.poll(() => sentTo(telegram, alice.id).at(-1)).toMatch(/paired with this assistant, as its owner/);
    await expect(client.request('commands.run', { sessionKey: key, text: '/pairing approve NOPE2345' })).rejects.toThrow(new RegExp(`pending: ${bobCode}`));

    // In a group, a member who is not the owner cannot answer; the owner can, from her own chat.
    telegram.pushMessage(team, carol, `/pairing reject ${bobCode}`);
    await expect.poll(() => sentTo(telegram, team.id), { timeout: 5000 }).toEqual([expect.stringMatching(/\/pairing is for the owner of this assistant only/)]);
    expect(gateway.core.channels.pendingPairings().map((p) => p.code)).toEqual([bobCode]);
    telegram.pushMessage(aliceChat, alice, `/pairing reject ${bobCode}`);
    await expect.poll(() => sentTo(telegram, alice.id).at(-1), { timeout: 5000 }).toMatch(new RegExp(`^Rejected ${bobCode}: @bob`));
    expect(gateway.core.channels.pendingPairings()).toEqual([]);
    const after = await client.request('commands.list', {});
    expect(after.commands.find((c) => c.name === 'pairing')?.arguments?.[1]?.values).toEqual([]);
  });
});

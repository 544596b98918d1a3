import { afterEach, describe, expect, it } from 'vitest';
import { echoRunner } from '../../source/queue/index.js';
import { alice, aliceChat, bob, startTelegramRig, type TelegramRig } from './telegram-harness.js';

const SESSION = 'agent:main:telegram:direct:4001';

let rig: TelegramRig | undefined;
afterEach(async () => {
  await rig?.stop();
  rig = undefined;
});

async function telegramSession(r: TelegramRig): Promise<void> {
  r.telegram.pushMessage(aliceChat, alice, 'hi');
  await r.telegram.waitFor((c) => c.method === 'sendMessage' && c.params.text === 'echo: hi');
}

function ask(r: TelegramRig, command: string) {
  return r.gateway.core.tools.inbox.request({
    kind: 'exec',
    command,
    cwd: '/work',
    envKeys: [],
    reason: 'not in the allowlist',
    agentId: 'main',
    sessionKey: SESSION,
  });
}

async function buttonsMessage(r: TelegramRig, after: number) {
  return r.telegram.waitFor((c, i = r.telegram.calls.indexOf(c)) => i >= after && c.method === 'sendMessage' && c.params.reply_markup !== undefined);
}

describe('exec approvals on the phone', () => {
  it('Once pressed in Telegram approves, and the TUI sees who decided; the message then says so', async () => {
    rig = await startTelegramRig({ account: { dmPolicy: 'allowlist', allowFrom: ['4001'] }, core: { runner: echoRunner } });
    const r = rig;
    await telegramSession(r);
    const client = await r.gateway.connect();
    const resolved: string[] = [];
    client.on('approval.resolved', (payload) => resolved.push(`${payload.approval.status} ${payload.approval.resolvedBy}`));
    const command = `echo '<b>&amp;</b>' && ${'x'.repeat(5000)}`;
    const start = r.telegram.calls.length;
    const outcome = ask(r, command);
    const prompt = await buttonsMessage(r, start);
    expect(Number(prompt.params.chat_id)).toBe(alice.id);
    const markup = prompt.params.reply_markup as { inline_keyboard: Array<Array<{ text: string; callback_data: string }>> };
    expect(markup.inline_keyboard.flat().map((b) => b.text)).toEqual(['Once', 'Session', 'Always', 'Deny']);
    // The command is shown whole and escaped, in pre blocks over as many messages as it needs.
    const shown = r.telegram.calls
      .slice(start)
      .filter((c) => c.method === 'sendMessage')
      .map((c) => String(c.params.text))
      .join('');
    expect(shown).toContain("echo '&lt;b&gt;&amp;amp;&lt;/b&gt;'");
    expect(shown.match(/x/g)?.length).toBeGreaterThanOrEqual(5000);
    const once = markup.inline_keyboard[0]![0]!.callback_data;
    r.telegram.pushCallback(alice, { chatId: alice.id, messageId: 1 }, once);
    await expect(outcome).resolves.toMatchObject({ approved: true, decision: 'once' });
    await expect.poll(() => resolved).toEqual(['approved telegram:@alice']);
    const toast = await r.telegram.waitFor((c) => c.method === 'answerCallbackQuery');
    expect(toast.params.text).toBe('Approved once.');
    const edit = await r.telegram.waitFor((c) => c.method === 'editMessageText');
    expect(String(edit.params.text)).toMatch(/^Approved once by telegram:@alice/);
  });

  it('a press after the TUI answered says who decided; a non-owner press does not count', async () => {
    rig = await startTelegramRig({ account: { dmPolicy: 'allowlist', allowFrom: ['4001', '4002'] }, core: { runner: echoRunner } });
    const r = rig;
    await telegramSession(r);
    const client = await r.gateway.connect({ clientName: 'tui' });
    let start = r.telegram.calls.length;
    const first = ask(r, 'rm -rf build');
    const prompt = await buttonsMessage(r, start);
    const data = (prompt.params.reply_markup as { inline_keyboard: Array<Array<{ callback_data: string }>> }).inline_keyboard[0]![0]!.callback_data;
    const id = data.split(':')[1]!;
    await client.request('approvals.resolve', { id, decision: 'deny' });
    await expect(first).resolves.toMatchObject({ approved: false });
    const edit = await r.telegram.waitFor((c) => c.method === 'editMessageText');
    expect(String(edit.params.text)).toMatch(/^Denied by /);
    r.telegram.pushCallback(alice, { chatId: alice.id, messageId: 1 }, data);
    const late = await r.telegram.waitFor((c) => c.method === 'answerCallbackQuery');
    expect(String(late.params.text)).toMatch(/^Already decided by .+ \(denied\)/);

    start = r.telegram.calls.length;
    const second = ask(r, 'make deploy');
    const secondPrompt = await buttonsMessage(r, start);
    const secondData = (secondPrompt.params.reply_markup as { inline_keyboard: Array<Array<{ callback_data: string }>> }).inline_keyboard[0]![0]!.callback_data;
    const before = r.telegram.callsOf('answerCallbackQuery').length;
    r.telegram.pushCallback(bob, { chatId: bob.id, messageId: 1 }, secondData);
    await expect.poll(() => r.telegram.callsOf('answerCallbackQuery').length).toBe(before + 1);
    expect(r.telegram.callsOf('answerCallbackQuery').at(-1)!.params.text).toBe('Only the owner can answer approvals.');
    expect(r.gateway.core.tools.inbox.get(secondData.split(':')[1]!)?.status).toBe('pending');
    r.telegram.pushCallback(alice, { chatId: alice.id, messageId: 1 }, secondData.replace(/:o$/, ':s'));
    await expect(second).resolves.toMatchObject({ approved: true, decision: 'session' });
  });
});

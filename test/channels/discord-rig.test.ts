import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { echoRunner, type TurnContext, type TurnOutcome } from '../../source/queue/index.js';
import { startFakeDiscord } from '../support/fake-discord.js';
import { startTestGateway } from '../support/gateway-harness.js';
import { makeTempState } from '../support/temp-state.js';
import { ada, bob, botTexts, DISCORD_TOKEN, GENERAL, GUILD, otherBot, startDiscordRig, type DiscordRig } from './discord-harness.js';

let rig: DiscordRig | undefined;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  await rig?.stop();
  rig = undefined;
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups.length = 0;
});

const SESSION = `agent:main:discord:direct:${ada.id}`;

describe('Discord in a running gateway', () => {
  it('pairs an unknown DM sender; the owner approves; replies come back in the DM with nobody pinged', async () => {
    rig = await startDiscordRig({ core: { runner: echoRunner } });
    const { discord, gateway } = rig;
    await expect.poll(() => gateway.core.channels?.status()[0]?.state).toBe('running');
    const dm = discord.dmChannel(ada);
    discord.pushMessage(dm, ada, 'hello');
    await expect.poll(() => botTexts(discord, dm).join('\n')).toMatch(/pairing code is [A-Z0-9]{8}/);
    const code = /code is ([A-Z0-9]{8})/.exec(botTexts(discord, dm)[0]!)![1]!;
    await gateway.core.channels!.approvePairing(code, { owner: true });
    discord.pushMessage(dm, ada, 'ping @everyone');
    await expect.poll(() => botTexts(discord, dm).at(-1)).toBe('echo: ping @\u200beveryone');
    const sent = discord.calls.filter((c) => c.method === 'POST' && c.path === `/channels/${dm}/messages`).at(-1)!;
    expect(sent.body.allowed_mentions).toEqual({ parse: [], replied_user: false });
    expect(typeof sent.body.nonce).toBe('string');
    expect(sent.body.enforce_nonce).toBe(true);
  });

  it('guilds: only allowed channels, only when mentioned, never a bot; a thread has its own session under its channel', async () => {
    rig = await startDiscordRig({
      account: { guilds: { [GUILD]: { channels: [GENERAL] } }, maxMessagesPerMinute: 3 },
      core: { runner: echoRunner },
    });
    const { discord, gateway } = rig;
    await expect.poll(() => gateway.core.channels?.status()[0]?.state).toBe('running');
    const elsewhere = discord.guildChannel(GUILD, '330000000000000009', 'random');
    const thread = discord.thread(GUILD, GENERAL, '340000000000000001');
    const mention = { mentions: [discord.bot] };
    discord.pushMessage(GENERAL, bob, 'chatter');
    discord.pushMessage(elsewhere, bob, `<@${discord.bot.id}> hi`, mention);
    discord.pushMessage(GENERAL, otherBot, `<@${discord.bot.id}> loop?`, mention);
    discord.pushMessage(GENERAL, bob, `<@${discord.bot.id}> in general`, mention);
    discord.pushMessage(thread, bob, `<@${discord.bot.id}> in the thread`, mention);
    await expect.poll(() => botTexts(discord, GENERAL)).toEqual(['echo: in general']);
    await expect.poll(() => botTexts(discord, thread)).toEqual(['echo: in the thread']);
    expect(botTexts(discord, elsewhere)).toEqual([]);
    const keys = (await gateway.core.sessions.list()).map((s) => s.key);
    expect(keys).toContain(`agent:main:discord:group:${GENERAL}`);
    expect(keys).toContain(`agent:main:discord:group:${GENERAL}:thread:340000000000000001`);
    // Three a minute per channel: the fourth and fifth are not answered.
    for (const n of [1, 2, 3, 4]) discord.pushMessage(GENERAL, bob, `<@${discord.bot.id}> burst ${n}`, mention);
    await expect.poll(() => botTexts(discord, GENERAL).length).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(botTexts(discord, GENERAL)).toEqual(['echo: in general', 'echo: burst 1', 'echo: burst 2']);
    const status = gateway.core.channels!.status()[0]!;
    expect(status.ignored).toMatchObject({ 'not mentioned': 1, 'channel not allowed': 1, 'from a bot': 1, 'too many messages': 2 });
  });

  it('an exec approval reaches the owner as buttons; a press answers within the interaction and the message then says who decided', async () => {
    rig = await startDiscordRig({ account: { dmPolicy: 'allowlist', allowFrom: [ada.id, bob.id] }, core: { runner: echoRunner } });
    const { discord, gateway } = rig;
    await expect.poll(() => gateway.core.channels?.status()[0]?.state).toBe('running');
    const dm = discord.dmChannel(ada);
    discord.pushMessage(dm, ada, 'hi');
    await expect.poll(() => botTexts(discord, dm)).toEqual(['echo: hi']);
    const outcome = gateway.core.tools.inbox.request({
      kind: 'exec',
      command: 'rm -rf build',
      cwd: '/work',
      envKeys: [],
      reason: 'not in the allowlist',
      agentId: 'main',
      sessionKey: SESSION,
    });
    await expect.poll(() => discord.messages(dm).filter((m) => m.components?.length).length).toBe(1);
    const prompt = discord.messages(dm).find((m) => m.components?.length)!;
    const rows = prompt.components as Array<{ components: Array<{ label: string; custom_id: string }> }>;
    expect(rows.flatMap((r) => r.components.map((b) => b.label))).toEqual(['Once', 'Session', 'Always', 'Deny']);
    const once = rows[0]!.components[0]!.custom_id;
    const bobPress = discord.pushButton(bob, dm, prompt.id, once);
    const bobAnswer = await discord.waitFor((c) => c.path.startsWith(`/interactions/${bobPress.id}/`));
    expect((bobAnswer.body.data as { content: string; flags: number }).content).toBe('Only the owner can answer approvals.');
    expect((bobAnswer.body.data as { flags: number }).flags).toBe(64);
    const press = discord.pushButton(ada, dm, prompt.id, once);
    await expect(outcome).resolves.toMatchObject({ approved: true, decision: 'once' });
    const answer = await discord.waitFor((c) => c.path.startsWith(`/interactions/${press.id}/`));
    expect(answer.status).toBe(204);
    expect((answer.body.data as { content: string }).content).toBe('Approved once.');
    await expect.poll(() => discord.messages(dm).find((m) => m.id === prompt.id)?.content).toMatch(/^Approved once by discord:Ada/);
    expect(discord.messages(dm).find((m) => m.id === prompt.id)?.components).toEqual([]);
  });

  it('streams a reply as one message edited at most once a second, and a long reply ends split at 2,000 characters with fences whole', async () => {
    const long = `Intro\n\n\`\`\`ts\n${Array.from({ length: 120 }, (_, i) => `const line${i} = ${i}; // some code to fill`).join('\n')}\n\`\`\`\n\nDone.`;
    const runner = {
      async run(turn: TurnContext): Promise<TurnOutcome> {
        for (let i = 0; i < 10; i++) {
          const delta = long.slice((i * long.length) / 10, ((i + 1) * long.length) / 10);
          turn.emit('chat', { runId: turn.runId, sessionKey: turn.sessionKey, state: 'delta', delta });
          await new Promise((resolve) => setTimeout(resolve, 120));
        }
        turn.session.append({ type: 'message', role: 'assistant', content: [{ type: 'text', text: long }], stopReason: 'stop' });
        turn.emit('chat', { runId: turn.runId, sessionKey: turn.sessionKey, state: 'final', text: long });
        return { status: 'replied', text: long };
      },
    };
    rig = await startDiscordRig({ account: { dmPolicy: 'open' }, core: { runner } });
    const { discord, gateway } = rig;
    await expect.poll(() => gateway.core.channels?.status()[0]?.state).toBe('running');
    const dm = discord.dmChannel(ada);
    discord.pushMessage(dm, ada, 'write code');
    await expect.poll(() => botTexts(discord, dm).join('').length, { timeout: 10_000 }).toBeGreaterThan(long.length);
    const parts = botTexts(discord, dm);
    expect(parts.length).toBeGreaterThanOrEqual(3);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(2000);
      expect((part.match(/^```/gm) ?? []).length % 2).toBe(0);
    }
    const edits = discord.calls.filter((c) => c.method === 'PATCH');
    for (let i = 1; i < edits.length; i++) expect(edits[i]!.at - edits[i - 1]!.at).toBeGreaterThanOrEqual(900);
    expect(discord.refusals).toEqual([]);
  });

  it('after a restart, messages written while the gateway was down are read from history and answered once', async () => {
    const discord = await startFakeDiscord({ token: DISCORD_TOKEN, heartbeatIntervalMs: 500 });
    const state = makeTempState();
    cleanups.push(
      () => state.cleanup(),
      () => discord.close(),
    );
    const options = { discord, state, account: { dmPolicy: 'open' }, core: { runner: echoRunner } };
    const first = await startDiscordRig(options);
    const dm = discord.dmChannel(ada);
    await expect.poll(() => first.gateway.core.channels?.status()[0]?.state).toBe('running');
    discord.pushMessage(dm, ada, 'before');
    await expect.poll(() => botTexts(discord, dm)).toEqual(['echo: before']);
    await first.stop();
    discord.pushMessage(dm, ada, 'while down 1', { historyOnly: true });
    discord.pushMessage(dm, ada, 'while down 2', { historyOnly: true });
    rig = await startDiscordRig(options);
    await expect.poll(() => botTexts(discord, dm)).toEqual(['echo: before', 'echo: while down 1', 'echo: while down 2']);
    await rig.stop();
    rig = await startDiscordRig(options);
    await expect.poll(() => rig!.gateway.core.channels?.status()[0]?.state).toBe('running');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(botTexts(discord, dm)).toEqual(['echo: before', 'echo: while down 1', 'echo: while down 2']);
  });

  it('a token stored again while the gateway runs reconnects the account with it; the token never reaches a status or a log line', async () => {
    const discord = await startFakeDiscord({ token: DISCORD_TOKEN, heartbeatIntervalMs: 500 });
    cleanups.push(() => discord.close());
    const state = makeTempState();
    cleanups.push(() => state.cleanup());
    const badFile = join(state.dir, 'credentials', 'discord-default.token');
    mkdirSync(join(state.dir, 'credentials'), { recursive: true, mode: 0o700 });
    writeFileSync(badFile, 'MTIzNDU2Nzg5MDEyMzQ1Njc4.Gwrong.wrong_token_wrong_token_wrong_00\n', { mode: 0o600 });
    const gateway = await startTestGateway({
      state,
      config: { channels: { discord: { accounts: { default: { apiRoot: discord.apiRoot, dmPolicy: 'open' } } } } },
      core: { runner: echoRunner, channels: { timings: { reconnectFirstDelayMs: 50 } } },
    });
    cleanups.push(() => gateway.stop());
    await expect.poll(() => gateway.core.channels?.status()[0]?.state).toBe('error');
    expect(JSON.stringify(gateway.core.channels?.status())).not.toContain('wrong_token');
    writeFileSync(badFile, `${DISCORD_TOKEN}\n`, { mode: 0o600 });
    await expect.poll(() => gateway.core.channels?.status()[0]?.state, { timeout: 5000 }).toBe('running');
    const dm = discord.dmChannel(ada);
    discord.pushMessage(dm, ada, 'works now');
    await expect.poll(() => botTexts(discord, dm)).toEqual(['echo: works now']);
  });
});

describe('Discord slash commands', () => {
  it('registers claw’s commands once (again only when they change); a command picked from the menu runs with the sender’s authority', async () => {
    const discord = await startFakeDiscord({ token: DISCORD_TOKEN, heartbeatIntervalMs: 500 });
    const state = makeTempState();
    cleanups.push(
      () => state.cleanup(),
      () => discord.close(),
    );
    const options = { discord, state, account: { dmPolicy: 'allowlist', allowFrom: [ada.id, bob.id] }, core: { runner: echoRunner } };
    const first = await startDiscordRig(options);
    await expect.poll(() => discord.commands().length).toBeGreaterThan(5);
    const names = discord.commands().map((c) => c.name);
    expect(names).toContain('status');
    expect(names).toContain('new');
    expect(discord.calls.filter((c) => c.method === 'PUT' && c.path.endsWith('/commands'))).toHaveLength(1);
    expect(discord.refusals).toEqual([]);
    const dm = discord.dmChannel(ada);
    const picked = discord.pushCommand(ada, dm, 'status');
    const ack = await discord.waitFor((c) => c.path.startsWith(`/interactions/${picked.id}/`));
    expect(ack.status).toBe(204);
    expect((ack.body.data as { flags: number }).flags).toBe(64);
    await expect.poll(() => botTexts(discord, dm).join('\n')).toMatch(/model/i);
    // Bob is allowed to talk, not to run the owner's commands.
    const bobDm = discord.dmChannel(bob);
    discord.pushCommand(bob, bobDm, 'cron', 'list');
    await expect.poll(() => botTexts(discord, bobDm).join('\n')).toMatch(/owner/i);
    await first.stop();
    rig = await startDiscordRig(options);
    await expect.poll(() => rig!.gateway.core.channels?.status()[0]?.state).toBe('running');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(discord.calls.filter((c) => c.method === 'PUT' && c.path.endsWith('/commands'))).toHaveLength(1);
  });
});

describe('Discord files and the message tool', () => {
  it('saves an attachment under the workspace inbox and names it; the message tool posts to an allowed guild channel', async () => {
    const results: string[] = [];
    const runner = {
      async run(turn: TurnContext): Promise<TurnOutcome> {
        const core = rig!.gateway.core;
        const tool = core.tools.registry.get('message')!;
        const result = await tool.execute(
          { action: 'send', channel: 'discord', to: GENERAL, text: `Posted: ${turn.messages.map((m) => m.text).join(' ')}` },
          {
            agentId: turn.agentId,
            sessionKey: turn.sessionKey,
            sessionType: 'direct',
            workspaceDir: core.paths.workspace('main'),
            signal: turn.signal,
            onUpdate: () => undefined,
            approvals: core.tools.inbox.gate(turn.agentId, turn.sessionKey),
          },
        );
        results.push(`${result.isError ? 'error' : 'ok'}: ${result.content}`);
        return { status: 'replied', text: 'done' };
      },
    };
    rig = await startDiscordRig({ account: { dmPolicy: 'open', guilds: { [GUILD]: { channels: [GENERAL] } } }, core: { runner } });
    const { discord, gateway } = rig;
    await expect.poll(() => gateway.core.channels?.status()[0]?.state).toBe('running');
    const dm = discord.dmChannel(ada);
    discord.pushMessage(dm, ada, 'share this', { attachments: [{ filename: 'notes.txt', bytes: Buffer.from('hello file'), contentType: 'text/plain' }] });
    await expect.poll(() => results.length, { timeout: 5000 }).toBe(1);
    expect(results[0]).toMatch(/^ok: Sent on discord:default chat 330000000000000001/);
    const posted = botTexts(discord, GENERAL)[0]!;
    expect(posted).toMatch(/^Posted: share this\n\[document saved: inbox\/\d+-\d+-notes\.txt\]$/);
    const saved = /inbox\/[\w.-]+/.exec(posted)![0];
    expect(readFileSync(join(gateway.core.paths.workspace('main'), saved), 'utf8')).toBe('hello file');
  });
});

describe('Discord errors', () => {
  it('a failed turn in a guild says only that there is no answer; a refused command still says why; in a DM the failure says why', async () => {
    const runner = {
      async run(): Promise<TurnOutcome> {
        return { status: 'failed', error: 'provider said 401 at /home/me/.config' };
      },
    };
    rig = await startDiscordRig({ account: { dmPolicy: 'open', guilds: { [GUILD]: { channels: [GENERAL], requireMention: false } } }, core: { runner } });
    const { discord, gateway } = rig;
    await expect.poll(() => gateway.core.channels?.status()[0]?.state).toBe('running');
    discord.pushMessage(GENERAL, bob, 'hello all');
    await expect.poll(() => botTexts(discord, GENERAL)).toEqual(['⚠️ I could not answer that; my owner can see why.']);
    discord.pushMessage(GENERAL, bob, '/cron list');
    await expect.poll(() => botTexts(discord, GENERAL).length).toBe(2);
    expect(botTexts(discord, GENERAL)[1]).toMatch(/owner/);
    expect(botTexts(discord, GENERAL)[1]).not.toContain('could not answer that');
    const dm = discord.dmChannel(ada);
    discord.pushMessage(dm, ada, 'hi');
    await expect.poll(() => botTexts(discord, dm).join('')).toContain('provider said 401');
  });
});

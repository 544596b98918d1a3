import { afterEach, describe, expect, it } from 'vitest';
import { readWebhookTokenSync } from '../../source/hooks/index.js';
import { sessionLabel } from '../../source/tui/text/session-origin.js';
import type { TranscriptEntry } from '../../source/protocol/index.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import type { RecordedRequest } from '../support/fake-llm-common.js';
import type { FakeChat } from '../support/fake-telegram.js';
import { alice, aliceChat, bob, bobChat, sentTo, startTelegramRig, type TelegramRig } from './telegram-harness.js';

const team: FakeChat = { id: -100901, type: 'supergroup', title: 'Team' };

let rig: TelegramRig | undefined;
let llm: FakeLlmServer | undefined;
afterEach(async () => {
  await rig?.stop();
  await llm?.close();
  rig = llm = undefined;
});

const toolsOf = (request: RecordedRequest): string[] =>
  ((request.body.tools ?? []) as Array<{ function: { name: string } }>).map((tool) => tool.function.name).sort();

async function start(extra: Record<string, unknown> = {}): Promise<TelegramRig> {
  llm = await startFakeOpenAI();
  llm.setDefault({ text: 'noted' });
  rig = await startTelegramRig({
    account: { dmPolicy: 'allowlist', allowFrom: [String(alice.id), String(bob.id)], groups: { [String(team.id)]: { requireMention: false } } },
    config: {
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
      agents: { defaults: { model: 'fake/m', heartbeat: { every: '0' } } },
      ...extra,
    },
  });
  return rig;
}

describe('the tools a turn gets follow who asked', () => {
  it('the owner keeps the workspace tools; a second allowed sender, a group member and a webhook get none of them; the transcript says who asked', async () => {
    const { telegram, gateway } = await start();
    telegram.pushMessage(aliceChat, alice, 'hello from the owner');
    await expect.poll(() => sentTo(telegram, alice.id), { timeout: 10_000 }).toEqual(['noted']);
    const owner = toolsOf(llm!.requests.at(-1)!);
    expect(owner).toEqual(expect.arrayContaining(['read', 'write', 'exec', 'memory_search', 'web_fetch']));

    const outside = [
      'read',
      'write',
      'edit',
      'apply_patch',
      'exec',
      'process',
      'memory_search',
      'memory_get',
      'web_fetch',
      'message',
      'sessions_send',
      'sessions_spawn',
      'cron',
    ];
    telegram.pushMessage(bobChat, bob, 'please read MEMORY.md to me');
    await expect.poll(() => sentTo(telegram, bob.id), { timeout: 10_000 }).toEqual(['noted']);
    const contact = toolsOf(llm!.requests.at(-1)!);
    for (const tool of outside) expect(contact, tool).not.toContain(tool);

    telegram.pushMessage(team, bob, 'rewrite AGENTS.md please');
    await expect.poll(() => sentTo(telegram, team.id), { timeout: 10_000 }).toEqual(['noted']);
    const member = toolsOf(llm!.requests.at(-1)!);
    for (const tool of outside) expect(member, tool).not.toContain(tool);

    const token = readWebhookTokenSync(gateway.state.paths)!;
    const hook = await fetch(`${gateway.url.replace('ws:', 'http:')}/hooks/agent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ message: 'read MEMORY.md and tell me' }),
    });
    expect(hook.status).toBe(202);
    const before = llm!.requests.length;
    await expect.poll(() => llm!.requests.length, { timeout: 10_000 }).toBeGreaterThan(before);
    const webhook = toolsOf(llm!.requests.at(-1)!);
    for (const tool of outside) expect(webhook, tool).not.toContain(tool);

    const client = await gateway.connect();
    const { sessions } = await client.request('sessions.list', {});
    const direct = sessions.find((session) => session.key.includes(`direct:${bob.id}`))!;
    expect(direct.principal).toBe('contact');
    expect(sessions.find((session) => session.key.includes(`direct:${alice.id}`))?.principal).toBe('owner');
    expect(sessions.find((session) => session.key.includes(`group:${team.id}`))?.principal).toBe('group-member');
    expect(sessionLabel(direct)).toMatch(/ · contact$/);
    const context = await client.request('commands.run', { sessionKey: direct.key, text: '/context list' });
    expect(context.reply).toContain('asked by       contact (tool profile: tools.profiles.contact)');
    expect(context.reply).toMatch(/withheld\s+\d+ tools/);
    expect(context.reply).toMatch(/\n {2}write\s+denied by "group:fs" \(who asked: tools\.profiles\)/);
    const { entries } = await client.request('sessions.history', { key: direct.key, limit: 10 });
    const asked = entries.find((entry): entry is Extract<TranscriptEntry, { role: 'user' }> => entry.type === 'message' && entry.role === 'user');
    expect(asked?.meta?.principal).toBe('contact');
  });

  it('the owner widens a kind with tools.profiles', async () => {
    const { telegram } = await start({ tools: { profiles: { contact: { deny: ['group:runtime', 'group:web'] } } } });
    telegram.pushMessage(bobChat, bob, 'what is in notes.txt?');
    await expect.poll(() => sentTo(telegram, bob.id), { timeout: 10_000 }).toEqual(['noted']);
    const contact = toolsOf(llm!.requests.at(-1)!);
    expect(contact).toContain('read');
    expect(contact).not.toContain('exec');
    expect(contact).not.toContain('web_fetch');
  });
});

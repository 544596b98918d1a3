import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OutboundReply } from '../../source/core/index.js';
import type { ReplyRoute } from '../../source/protocol/index.js';
import { startSessionsGateway, idle, type SessionsGateway } from './sessions-harness.js';

let running: SessionsGateway | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

function systemPrompt(request: { body: Record<string, unknown> }): string {
  const messages = request.body.messages as Array<{ role: string; content: unknown }>;
  return String(messages.find((m) => m.role === 'system')?.content ?? '');
}

function toolNames(request: { body: Record<string, unknown> }): string[] {
  return ((request.body.tools ?? []) as Array<{ function: { name: string } }>).map((tool) => tool.function.name);
}

describe('several agents on one gateway', () => {
  it('answers a bound peer with the bound agent: its own workspace, model, tools, sessions and memory index; the reply leaves on the account it came in on', async () => {
    const s = await startSessionsGateway({
      agents: {
        list: [
          { id: 'main', default: true },
          { id: 'work', name: 'Work', model: 'fake/w', tools: { deny: ['group:web'] } },
        ],
      },
      bindings: [
        { agentId: 'work', match: { channel: 'chat', peer: { kind: 'direct', id: 'alice' } } },
        { agentId: 'main', match: { channel: 'chat', accountId: 'home-bot' } },
      ],
    });
    running = s;
    const { core, state } = s.gateway;
    const delivered: Array<{ route: ReplyRoute; reply: OutboundReply }> = [];
    core.outbound.register('chat', {
      async deliver(route, reply) {
        delivered.push({ route, reply });
        return { delivered: true };
      },
    });
    // Alice writes to the work bot's account; Bob writes to the home bot.
    const alice = await core.inbound.accept({
      channel: 'chat',
      accountId: 'work-bot',
      peer: { kind: 'direct', id: 'alice' },
      messageId: 'm1',
      text: 'answer on it',
      // A channel sets who asked; both are their bots' owners here.
      principal: 'owner',
    });
    const bob = await core.inbound.accept({
      channel: 'chat',
      accountId: 'home-bot',
      peer: { kind: 'direct', id: 'bob' },
      messageId: 'm2',
      text: 'answer hi bob',
      principal: 'owner',
    });
    await idle(core);
    expect(alice.sessionKey).toBe('agent:work:chat:direct:alice');
    expect(bob.sessionKey).toBe('agent:main:chat:direct:bob');

    const byModel = (model: string) => s.llm.requests.find((r) => r.body.model === model)!;
    const work = byModel('w');
    expect(systemPrompt(work)).toContain(`workspace: ${join(state.dir, 'workspace-work')}`);
    expect(systemPrompt(byModel('m'))).toContain(`workspace: ${join(state.dir, 'workspace')}`);
    expect(toolNames(work)).not.toContain('web_fetch');
    expect(toolNames(byModel('m'))).toContain('web_fetch');
    // The new workspace starts from the template, and the agent has its own session store and memory index.
    expect(readFileSync(join(state.dir, 'workspace-work', 'TOOLS.md'), 'utf8')).toBe(readFileSync(join(state.dir, 'workspace', 'TOOLS.md'), 'utf8'));
    // sessions.json writes are coalesced: the file lands shortly after the turn, not with it.
    await expect.poll(() => existsSync(join(state.dir, 'agents', 'work', 'sessions', 'sessions.json'))).toBe(true);
    expect(core.memory.indexFor('work').agentId).toBe('work');

    expect(delivered.map((d) => [d.route.accountId, d.route.peer?.id, d.reply.text]).sort()).toEqual([
      ['home-bot', 'bob', 'hi bob'],
      ['work-bot', 'alice', 'on it'],
    ]);
  });

  it("keeps each agent's memory to itself", async () => {
    const s = await startSessionsGateway({ agents: { list: [{ id: 'main' }, { id: 'work' }] } });
    running = s;
    const { core, state } = s.gateway;
    writeFileSync(join(state.dir, 'workspace-work', 'MEMORY.md'), '# Memory\n\nThe quarterly report is due on Friday.\n');
    await core.memory.indexFor('work').sync({ force: true });
    await core.memory.indexFor('main').sync({ force: true });
    expect((await core.memory.indexFor('work').search({ query: 'quarterly report' })).results.length).toBeGreaterThan(0);
    expect((await core.memory.indexFor('main').search({ query: 'quarterly report' })).results).toEqual([]);
  });
});

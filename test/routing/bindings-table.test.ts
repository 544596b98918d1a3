import { describe, expect, it } from 'vitest';
import { configSchema } from '../../source/config/index.js';
import { routeInbound, type RouteInput } from '../../source/routing/index.js';

const config = configSchema.parse({
  agents: { list: [{ id: 'home' }, { id: 'work' }, { id: 'fam' }, { id: 'ops', default: true }, { id: 'tg' }, { id: 'late' }] },
  bindings: [
    { agentId: 'tg', match: { channel: 'telegram' } },
    { agentId: 'late', match: { channel: 'telegram' } },
    { agentId: 'home', match: { channel: 'telegram', accountId: 'home-bot' } },
    { agentId: 'fam', match: { channel: 'telegram', peer: { kind: 'group', id: 'family' } } },
    { agentId: 'work', match: { peer: { kind: 'direct', id: 'alice' } } },
    { agentId: 'home', match: { channel: 'telegram', accountId: 'work-bot', peer: { kind: 'direct', id: 'carol' } } },
  ],
});

const dm = (channel: string, id: string, accountId?: string): RouteInput => ({ channel, peer: { kind: 'direct', id }, ...(accountId ? { accountId } : {}) });

/** inbound → (agent, session key, why): the whole routing decision as a pure function of config and message. */
const table: Array<[string, RouteInput, string, string, string]> = [
  ['a peer binding beats the account and channel', dm('telegram', 'alice', 'home-bot'), 'work', 'agent:work:telegram:direct:alice', 'peer'],
  ['a peer binding without a channel matches on any channel', dm('slack', 'alice'), 'work', 'agent:work:slack:direct:alice', 'peer'],
  ['a peer binding with an account matches only on that account', dm('telegram', 'carol', 'work-bot'), 'home', 'agent:home:telegram:direct:carol', 'peer'],
  ['…and falls through elsewhere', dm('telegram', 'carol', 'other-bot'), 'tg', 'agent:tg:telegram:direct:carol', 'channel'],
  ['the account beats the channel', dm('telegram', 'bob', 'home-bot'), 'home', 'agent:home:telegram:direct:bob', 'channel-account'],
  ['the first of two channel bindings wins', dm('telegram', 'bob'), 'tg', 'agent:tg:telegram:direct:bob', 'channel'],
  ['no binding: the agent marked default', dm('slack', 'bob'), 'ops', 'agent:ops:slack:direct:bob', 'default'],
  ['a group chat of a bound group', { channel: 'telegram', peer: { kind: 'group', id: 'family' } }, 'fam', 'agent:fam:telegram:group:family', 'peer'],
  [
    'a thread inherits the binding of its parent chat',
    { channel: 'telegram', peer: { kind: 'group', id: 'family-topic-9' }, parentPeer: { kind: 'group', id: 'family' }, threadId: '9' },
    'fam',
    'agent:fam:telegram:group:family-topic-9:thread:9',
    'parent-peer',
  ],
  [
    'a thread of an unbound group falls to the channel',
    { channel: 'telegram', peer: { kind: 'group', id: 'g2' }, parentPeer: { kind: 'group', id: 'g1' }, threadId: '3' },
    'tg',
    'agent:tg:telegram:group:g2:thread:3',
    'channel',
  ],
];

describe('bindings: inbound → agent and session key', () => {
  it.each(table)('%s', (_why, input, agentId, sessionKey, matchedBy) => {
    expect(routeInbound(input, config)).toEqual({ agentId, sessionKey, matchedBy });
  });

  it('does not depend on anything but config and message (same in, same out, every order)', () => {
    const forward = table.map(([, input]) => routeInbound(input, config));
    const backward = [...table].reverse().map(([, input]) => routeInbound(input, config));
    expect(backward.reverse()).toEqual(forward);
  });

  it('keys direct messages per account when dmScope says so', () => {
    const scoped = configSchema.parse({ ...config, session: { dmScope: 'per-account-channel-peer' } });
    expect(routeInbound(dm('telegram', 'bob', 'home-bot'), scoped).sessionKey).toBe('agent:home:telegram:home-bot:direct:bob');
  });
});

describe('agents and bindings in claw.json', () => {
  it('refuses a binding to an agent that is not configured, saying how to add it', () => {
    const result = configSchema.safeParse({ agents: { list: [{ id: 'main' }] }, bindings: [{ agentId: 'work', match: { channel: 'slack' } }] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['bindings', 0, 'agentId'], message: expect.stringContaining('claw agents add work') });
  });

  it('refuses two default agents and a repeated id', () => {
    const twoDefaults = configSchema.safeParse({
      agents: {
        list: [
          { id: 'a', default: true },
          { id: 'b', default: true },
        ],
      },
    });
    expect(twoDefaults.error?.issues[0]?.message).toMatch(/more than one agent has "default": true/);
    const repeated = configSchema.safeParse({ agents: { list: [{ id: 'a' }, { id: 'a' }] } });
    expect(repeated.error?.issues[0]?.message).toMatch(/agent "a" is listed twice/);
  });
});

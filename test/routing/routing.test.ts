import { describe, expect, it } from 'vitest';
import { configSchema } from '../../source/config/index.js';
import {
  cronSessionKey,
  directSessionKey,
  groupSessionKey,
  hookSessionKey,
  mainSessionKey,
  parseSessionKey,
  resolveAgent,
  routeInbound,
  subagentSessionKey,
} from '../../source/routing/index.js';

const bindings = configSchema.parse({
  agents: { list: [{ id: 'main' }, { id: 'work' }, { id: 'fam' }, { id: 'ops' }, { id: 'tg' }] },
  bindings: [
    { agentId: 'tg', match: { channel: 'telegram' } },
    { agentId: 'ops', match: { channel: 'telegram', accountId: 'bot2' } },
    { agentId: 'fam', match: { channel: 'telegram', peer: { kind: 'group', id: 'family' } } },
    { agentId: 'work', match: { peer: { kind: 'direct', id: 'alice' } } },
  ],
}).bindings;

describe('bindings', () => {
  it('prefers peer > parent peer > channel account > channel > default', () => {
    expect(resolveAgent({ channel: 'telegram', accountId: 'bot2', peer: { kind: 'direct', id: 'alice' } }, bindings, 'main')).toEqual({
      agentId: 'work',
      matchedBy: 'peer',
    });
    expect(
      resolveAgent(
        { channel: 'telegram', accountId: 'bot2', peer: { kind: 'group', id: 'topic9' }, parentPeer: { kind: 'group', id: 'family' } },
        bindings,
        'main',
      ),
    ).toEqual({ agentId: 'fam', matchedBy: 'parent-peer' });
    expect(resolveAgent({ channel: 'telegram', accountId: 'bot2', peer: { kind: 'direct', id: 'bob' } }, bindings, 'main')).toEqual({
      agentId: 'ops',
      matchedBy: 'channel-account',
    });
    expect(resolveAgent({ channel: 'telegram', accountId: 'bot1', peer: { kind: 'direct', id: 'bob' } }, bindings, 'main')).toEqual({
      agentId: 'tg',
      matchedBy: 'channel',
    });
    expect(resolveAgent({ channel: 'slack', peer: { kind: 'direct', id: 'bob' } }, bindings, 'main')).toEqual({ agentId: 'main', matchedBy: 'default' });
  });

  it('does not match a peer binding of another channel', () => {
    expect(resolveAgent({ channel: 'slack', peer: { kind: 'group', id: 'family' } }, bindings, 'main').matchedBy).toBe('default');
  });
});

describe('session keys', () => {
  it('builds and parses every shape', () => {
    const keys = [
      mainSessionKey('main'),
      directSessionKey({ agentId: 'main', channel: 'telegram', peerId: '42', dmScope: 'per-channel-peer' }),
      directSessionKey({ agentId: 'main', channel: 'telegram', peerId: '42', dmScope: 'per-peer' }),
      directSessionKey({ agentId: 'main', channel: 'telegram', peerId: '42', accountId: 'bot2', dmScope: 'per-account-channel-peer' }),
      groupSessionKey('main', 'telegram', 'g1'),
      groupSessionKey('main', 'telegram', 'g1', 't7'),
      cronSessionKey('daily'),
      hookSessionKey('gh'),
      subagentSessionKey('main', '0b7c'),
    ];
    expect(keys).toEqual([
      'agent:main:main',
      'agent:main:telegram:direct:42',
      'agent:main:direct:42',
      'agent:main:telegram:bot2:direct:42',
      'agent:main:telegram:group:g1',
      'agent:main:telegram:group:g1:thread:t7',
      'cron:daily',
      'hook:gh',
      'agent:main:subagent:0b7c',
    ]);
    expect(keys.map((k) => parseSessionKey(k)?.kind)).toEqual(['main', 'direct', 'direct', 'direct', 'group', 'group', 'cron', 'hook', 'subagent']);
    expect(parseSessionKey('agent:main:telegram:group:g1:thread:t7')).toMatchObject({ agentId: 'main', channel: 'telegram', peerId: 'g1', threadId: 't7' });
    expect(parseSessionKey('agent:main:telegram:bot2:direct:42')).toMatchObject({ accountId: 'bot2', peerId: '42' });
  });

  it('rejects malformed keys and parts', () => {
    for (const bad of [
      '',
      'main',
      'agent:main',
      'agent:Main:main',
      'agent:main:weird',
      'cron:',
      'agent:main:x:y:z:w:v',
      'agent:main:main:extra',
      'agent:main: main',
    ]) {
      expect(parseSessionKey(bad), bad).toBeUndefined();
    }
    expect(() => mainSessionKey('a:b')).toThrow(/may not/);
  });

  it('dmScope main folds every direct message into the main session', () => {
    expect(directSessionKey({ agentId: 'main', channel: 'telegram', peerId: '42', dmScope: 'main' })).toBe('agent:main:main');
  });
});

describe('routeInbound', () => {
  it('is deterministic and applies bindings, dmScope and threads', () => {
    const config = configSchema.parse({
      agents: { list: [{ id: 'main' }, { id: 'work' }] },
      bindings: [{ agentId: 'work', match: { channel: 'slack' } }],
      session: { dmScope: 'per-peer' },
    });
    const dm = { channel: 'slack', peer: { kind: 'direct' as const, id: 'u1' } };
    expect(routeInbound(dm, config)).toEqual({ agentId: 'work', sessionKey: 'agent:work:direct:u1', matchedBy: 'channel' });
    expect(routeInbound(dm, config)).toEqual(routeInbound(dm, config));
    expect(routeInbound({ channel: 'telegram', peer: { kind: 'group', id: 'g' }, threadId: '5' }, config).sessionKey).toBe(
      'agent:main:telegram:group:g:thread:5',
    );
  });
});

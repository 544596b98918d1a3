import { describe, expect, it } from 'vitest';
import { accountContext, contextEventPayload, contextThresholds, defaultContextSettings, summaryMessage } from '../../source/agent/context/index.js';
import { contextPayload } from '../../source/protocol/index.js';
import { estimateTokens } from '../../source/providers/index.js';
import type { HistoryMessage } from '../../source/agent/index.js';
import { assistant, compaction, toolCall, toolResult, user, words } from './history-builders.js';

const identity = words(200, 'id');
const bootstrapText = `## Workspace files\n<file path="AGENTS.md">\n${words(400, 'ag')}\n</file>\n<file path="SOUL.md">\n${words(100, 'so')}\n</file>`;
const system = [identity, '## Tools\n- read: reads', bootstrapText].join('\n\n');

function sources(messages: HistoryMessage[]) {
  return {
    window: 100_000,
    family: 'openai' as const,
    systemPrompt: {
      text: system,
      sections: [
        { name: 'identity', chars: identity.length },
        { name: 'tools', chars: 22 },
        { name: 'skills', chars: 0 },
        { name: 'bootstrap', chars: bootstrapText.length },
      ],
    },
    bootstrap: [
      { name: 'AGENTS.md', injectedChars: words(400, 'ag').length },
      { name: 'SOUL.md', injectedChars: words(100, 'so').length },
      { name: 'MEMORY.md', injectedChars: 0 },
    ],
    tools: [{ name: 'read', description: 'reads a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } }],
    messages,
  };
}

describe('accountContext', () => {
  it('splits the context into parts that add up to the estimate', () => {
    const first = user('old question');
    const messages = [
      summaryMessage(compaction('summary text', first.id)),
      first,
      toolCall([{ id: 'c', name: 'read' }]),
      toolResult('c', words(300, 'res')),
      assistant('answer'),
      user('the new message'),
    ];
    const account = accountContext(sources(messages));
    const names = account.parts.map((part) => part.name);
    expect(names).toEqual([
      'system:identity',
      'system:tools',
      'bootstrap:AGENTS.md',
      'bootstrap:SOUL.md',
      'system:bootstrap',
      'tools',
      'history:summary',
      'history:messages',
      'history:tool results',
      'new message',
    ]);
    const part = (name: string): number => account.parts.find((p) => p.name === name)!.tokens;
    expect(part('bootstrap:AGENTS.md')).toBeGreaterThan(part('bootstrap:SOUL.md') * 3);
    expect(part('history:tool results')).toBeGreaterThan(350);
    expect(part('new message')).toBe(4 + estimateTokens('the new message'));
    expect(account.reported).toBeUndefined();
    expect(account.used).toBe(account.estimated);
    expect(Math.abs(account.parts.reduce((sum, p) => sum + p.tokens, 0) - account.used)).toBeLessThanOrEqual(1);
  });

  it('accounts a grown, rewritten or shortened conversation as it would afresh', () => {
    const afresh = (messages: HistoryMessage[]) => accountContext(sources(messages.map((message) => structuredClone(message))));
    const first = user(words(50, 'q'));
    const start = [first, assistant(words(80, 'a')), user('second')];
    expect(accountContext(sources(start))).toEqual(afresh(start));
    const grown = [...start, toolCall([{ id: 'c', name: 'read' }]), toolResult('c', words(300, 'res')), assistant('done'), user('third')];
    expect(accountContext(sources(grown))).toEqual(afresh(grown));
    const rewritten = [first, assistant(words(500, 'other')), ...grown.slice(2)];
    const account = accountContext(sources(rewritten));
    expect(account).toEqual(afresh(rewritten));
    expect(account.estimated).toBeGreaterThan(accountContext(sources(grown)).estimated);
    expect(accountContext(sources([first]))).toEqual(afresh([first]));
  });

  it('prefers the provider-reported usage of the last reply and calibrates the parts to it', () => {
    const reply: HistoryMessage = { ...assistant('answer'), usage: { input: 40_000, output: 200 } } as HistoryMessage;
    const messages = [user('q'), reply, user('next')];
    const account = accountContext(sources(messages));
    expect(account.reported).toBe(40_200 + 4 + estimateTokens('next'));
    expect(account.used).toBe(account.reported);
    const total = account.parts.reduce((sum, p) => sum + p.tokens, 0);
    expect(Math.abs(total - account.used)).toBeLessThanOrEqual(account.parts.length);
  });

  it('ignores usage reported before the compaction in force: it measured the longer context', () => {
    const kept = { ...assistant('kept answer'), usage: { input: 90_000, output: 10 } } as HistoryMessage;
    const fresh = user('after the compaction');
    const summary = summaryMessage(compaction('short summary', kept.id));
    const stale = accountContext({ ...sources([summary, kept, fresh]), freshFrom: 2 });
    expect(stale.reported).toBeUndefined();
    expect(stale.used).toBeLessThan(5_000);
    const reply = { ...assistant('new answer'), usage: { input: 3_000, output: 10 } } as HistoryMessage;
    expect(accountContext({ ...sources([summary, kept, fresh, reply]), freshFrom: 2 }).reported).toBe(3_010);
  });

  it('builds a context event that matches the protocol schema', () => {
    const account = accountContext(sources([user('hi')]));
    const payload = contextEventPayload('agent:main:main', account, [{ id: 'x', at: 5, before: 900, after: 100 }]);
    expect(contextPayload.parse(payload)).toEqual(payload);
    expect(payload.thresholds).toEqual({ flush: 76_000, compact: 80_000 });
  });
});

describe('contextThresholds', () => {
  it('uses the 20k floor and the 4k flush distance on large windows', () => {
    expect(contextThresholds(200_000)).toEqual({ window: 200_000, reserve: 20_000, flush: 176_000, compact: 180_000, keepRecent: 20_000 });
    expect(contextThresholds(200_000, { ...defaultContextSettings, reserveTokens: 50_000 }).compact).toBe(150_000);
  });

  it('keeps a small window usable instead of compacting on every turn', () => {
    const small = contextThresholds(8_192);
    expect(small.reserve).toBe(4_096);
    expect(small.compact).toBe(4_096);
    expect(small.flush).toBe(3_072);
    expect(small.keepRecent).toBe(2_048);
  });
});

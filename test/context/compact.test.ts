import { describe, expect, it } from 'vitest';
import { compactHistory, extractIdentifiers, type CompactionRequest, type Summariser, type SummaryRequest } from '../../source/agent/compaction/index.js';
import { contextThresholds, defaultContextSettings } from '../../source/agent/context/index.js';
import type { HistoryMessage } from '../../source/agent/index.js';
import { assistant, conversation, toolCall, toolResult, user, words } from './history-builders.js';

const WINDOW = 16_000;
const settings = { ...defaultContextSettings, reserveTokensFloor: 2_000, reserveTokens: 2_000, keepRecentTokens: 2_000 };
const thresholds = contextThresholds(WINDOW, settings);

function recording(answer: (request: SummaryRequest, index: number) => string): { summarise: Summariser; requests: SummaryRequest[] } {
  const requests: SummaryRequest[] = [];
  return {
    requests,
    summarise: async (request) => {
      requests.push(request);
      return answer(request, requests.length - 1);
    },
  };
}

const brief = '## Decisions\n- ship it\n## Open TODOs\n- none\n## Constraints\n- none\n## Pending user asks\n- none\n## Exact identifiers\n- none';

/** A history whose older part mentions identifiers and whose recent part is plain. */
function historyWithIdentifiers(): HistoryMessage[] {
  return [
    user('Deploy build 9f8e7d6c to db1.prod.internal:5432; the runbook is https://wiki.acme.io/runbooks/deploy and the ticket OPS-4711.'),
    toolCall([{ id: 'c1', name: 'read', arguments: { path: '/etc/claw/deploy.yaml' } }]),
    toolResult('c1', `session 0b7c2f1e-8d4a-4c3b-9e2f-1a2b3c4d5e6f\n${words(400, 'cfg')}`),
    assistant(`Read it. ${words(300, 'why')}`),
    ...conversation(12, 150),
  ];
}

function request(overrides: Partial<CompactionRequest> & Pick<CompactionRequest, 'summarise'>): CompactionRequest {
  return { messages: historyWithIdentifiers(), fixedTokens: 1_500, window: WINDOW, family: 'openai', thresholds, maxAttempts: 3, ...overrides };
}

describe('compactHistory', () => {
  it('summarises the older part, keeps the recent tail and shrinks the context', async () => {
    const { summarise, requests } = recording(
      () =>
        `${brief}\n- 9f8e7d6c db1.prod.internal:5432 https://wiki.acme.io/runbooks/deploy OPS-4711 /etc/claw/deploy.yaml 0b7c2f1e-8d4a-4c3b-9e2f-1a2b3c4d5e6f`,
    );
    const messages = historyWithIdentifiers();
    const result = await compactHistory(request({ summarise, messages, instructions: 'focus on the deploy' }));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.tokensAfter).toBeLessThan(result.tokensBefore);
    expect(result.tokensAfter).toBeLessThanOrEqual(thresholds.compact);
    const kept = messages.findIndex((message) => message.id === result.firstKeptEntryId);
    expect(kept).toBeGreaterThan(0);
    expect(messages[kept]!.role).not.toBe('toolResult');
    // Only the tool paths of the older rounds, which this summariser never mentions, had to be appended.
    expect(result.appendedIdentifiers.length).toBeGreaterThan(0);
    expect(result.appendedIdentifiers.every((value) => value.startsWith('/srv/app/'))).toBe(true);
    for (const value of result.appendedIdentifiers) expect(result.summary).toContain(value);
    expect(requests.every((r) => r.prompt.includes('focus on the deploy'))).toBe(true);
    expect(requests[0]!.prompt).toContain('## Pending user asks');
  });

  it('names missing identifiers once, then appends what is still missing', async () => {
    const { summarise, requests } = recording(() => brief);
    const result = await compactHistory(request({ summarise }));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const older = historyWithIdentifiers()
      .slice(0, 4)
      .map((m) => (m.role === 'assistant' ? JSON.stringify(m.content) : m.content))
      .join('\n');
    for (const identifier of extractIdentifiers(older).filter((i) => i.kind !== 'path' || i.value.startsWith('/etc')))
      expect(result.summary).toContain(identifier.value);
    expect(result.summary).toContain('https://wiki.acme.io/runbooks/deploy');
    expect(result.summary).toContain('0b7c2f1e-8d4a-4c3b-9e2f-1a2b3c4d5e6f');
    expect(result.appendedIdentifiers).toContain('OPS-4711');
    const retries = requests.filter((r) => r.prompt.includes('left out identifiers'));
    expect(retries).toHaveLength(1);
    expect(retries[0]!.prompt).toContain('db1.prod.internal:5432');
  });

  it('takes the revised summary when the retry brings the identifiers back', async () => {
    const { summarise } = recording((r) => {
      if (!r.prompt.includes('left out identifiers')) return brief;
      const listed = r.prompt
        .split('\n')
        .filter((line) => line.startsWith('- ') && !line.includes('none'))
        .join('\n');
      return `${brief}\n${listed}`;
    });
    const result = await compactHistory(request({ summarise }));
    expect(result.ok && result.appendedIdentifiers).toEqual([]);
    expect(result.ok && result.summary).toContain('OPS-4711');
  });

  it('a summariser that always answers too long ends after the attempt limit, without shrinking nothing', async () => {
    const { summarise, requests } = recording(() => words(60_000, 'long'));
    const result = await compactHistory(request({ summarise, maxAttempts: 3 }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.attempts).toBe(3);
    expect(result.reason).toMatch(/did not make the context smaller after 3 attempts/);
    // Per attempt: the staged calls plus one identifier retry; never more.
    expect(requests.length).toBeLessThanOrEqual(3 * 4);
    expect(result.summariserCalls).toBe(requests.length);
  });

  it('asks for shorter summaries on each attempt and accepts the first that fits', async () => {
    const { summarise, requests } = recording((r) => {
      const budget = Number(/under about (\d+) tokens/.exec(r.prompt)?.[1]);
      // Ignores the budget until it is small: output three times the request.
      return budget > 700
        ? words(budget * 6, 'x')
        : `${brief} 9f8e7d6c db1.prod.internal:5432 https://wiki.acme.io/runbooks/deploy OPS-4711 /etc/claw/deploy.yaml 0b7c2f1e-8d4a-4c3b-9e2f-1a2b3c4d5e6f`;
    });
    const result = await compactHistory(request({ summarise, maxAttempts: 4 }));
    expect(result.ok).toBe(true);
    const budgets = requests.map((r) => Number(/under about (\d+) tokens/.exec(r.prompt)?.[1]));
    expect(new Set(budgets).size).toBeGreaterThan(1);
    for (let i = 1; i < budgets.length; i += 1) expect(budgets[i]!).toBeLessThanOrEqual(budgets[i - 1]!);
  });

  it('summarises a large older history in stages and merges the partial summaries', async () => {
    const { summarise, requests } = recording((r) => (r.prompt.startsWith('These are summaries') ? brief : `partial ${words(20)}`));
    const messages = conversation(60, 200);
    const result = await compactHistory(request({ summarise, messages, window: 32_000, thresholds: contextThresholds(32_000, settings) }));
    expect(result.ok).toBe(true);
    const parts = requests.filter((r) => r.prompt.includes(' of the older conversation, in order'));
    expect(parts.length).toBeGreaterThanOrEqual(2);
    expect(requests.filter((r) => r.prompt.startsWith('These are summaries'))).toHaveLength(1);
    // The merge comes after every partial.
    expect(requests.findIndex((r) => r.prompt.startsWith('These are summaries'))).toBeGreaterThan(requests.indexOf(parts.at(-1)!));
  });

  it('reports a failing summariser instead of retrying it', async () => {
    const { summarise, requests } = recording(() => {
      throw new Error('503 overloaded');
    });
    const result = await compactHistory(request({ summarise }));
    expect(result).toMatchObject({ ok: false, attempts: 1, reason: 'the summariser failed: 503 overloaded' });
    expect(requests).toHaveLength(1);
  });

  it('refuses when there is nothing older than the recent tail', async () => {
    const { summarise, requests } = recording(() => brief);
    const result = await compactHistory(request({ summarise, messages: [user(words(3_000))] }));
    expect(result.ok).toBe(false);
    expect(requests).toHaveLength(0);
  });

  it('scales before/after to the provider-reported size', async () => {
    const { summarise } = recording(
      () => `${brief} 9f8e7d6c db1.prod.internal:5432 https://wiki.acme.io/runbooks/deploy OPS-4711 /etc/claw/deploy.yaml 0b7c2f1e-8d4a-4c3b-9e2f-1a2b3c4d5e6f`,
    );
    const result = await compactHistory(request({ summarise, usedTokens: 15_000 }));
    expect(result.tokensBefore).toBe(15_000);
  });
});

describe('a compaction that fails says what the summariser returned', () => {
  it('names each attempt, the sections it lacked and how it began', async () => {
    const { summarise } = recording(() => 'Sure! Here is a short summary: the user deployed a build and asked about the database.');
    const result = await compactHistory(request({ summarise, maxAttempts: 3 }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toMatch(/^the summaries lacked the required sections after 3 attempts \(attempt 1: \d+ characters without "Decisions", "Open TODOs"/);
    expect(result.reason).toContain('"Sure! Here is a short summary: the user deployed a build');
    expect(result.reason).toContain('; attempt 3: ');
    const empty = await compactHistory(request({ summarise: recording(() => '').summarise, maxAttempts: 2 }));
    expect(!empty.ok && empty.reason).toBe('the summariser returned nothing after 2 attempts (attempt 1: an empty answer; attempt 2: an empty answer)');
  });
});

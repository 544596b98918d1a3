import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeEmbeddingsServer, type FakeEmbeddingsServer } from '../support/fake-embeddings-server.js';
import { embeddingsConfig, memoryFixture, type MemoryFixture } from './memory-fixture.js';

let server: FakeEmbeddingsServer;
let fx: MemoryFixture | undefined;

beforeAll(async () => {
  server = await startFakeEmbeddingsServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

const DAY = 86_400_000;

function writeCorpus(f: MemoryFixture): void {
  f.write(
    'MEMORY.md',
    [
      '# Infrastructure',
      '',
      'The primary database host is pg-main-03.eu-west.internal on port 6432.',
      'Deploy tickets live in Jira as OPS-4821 and OPS-4822.',
      '',
      '# People',
      '',
      'Dana owns the payment gateway integration.',
    ].join('\n'),
  );
  f.write('memory/projects/ledger.md', '# Ledger\n\nThe ledger export job id is 3f2c9a7e-1b4d-4e8a-9c0f-5d6e7f8a9b0c and runs nightly.\n');
  f.write('memory/finance.md', '# 理财\n\n我的投资目标是在十年内实现财务自由，主要配置指数基金。\n\n每月定投三千元。\n');
  f.write('memory/cooking.md', '# Cooking\n\nSourdough starter needs feeding every twelve hours with rye flour.\n');
}

describe.each([
  ['keyword', false],
  ['hybrid', true],
] as const)('memory search (%s)', (mode, withEmbeddings) => {
  const open = () => {
    fx = memoryFixture(withEmbeddings ? embeddingsConfig(server.baseUrl) : {});
    writeCorpus(fx);
    return fx.open(withEmbeddings ? { provider: undefined } : {});
  };

  it('finds identifiers: UUIDs, host names and ticket ids', async () => {
    const index = open();
    await index.sync();
    const uuid = await index.search({ query: '3f2c9a7e-1b4d-4e8a-9c0f-5d6e7f8a9b0c' });
    expect(uuid.mode).toBe(mode);
    expect(uuid.results[0]).toMatchObject({ path: 'memory/projects/ledger.md', startLine: 1, endLine: 3, source: 'memory' });
    expect((await index.search({ query: 'pg-main-03.eu-west.internal' })).results[0]).toMatchObject({ path: 'MEMORY.md', startLine: 1 });
    expect((await index.search({ query: 'OPS-4821' })).results[0]?.path).toBe('MEMORY.md');
  });

  it('finds English keywords and Chinese phrases', async () => {
    const index = open();
    await index.sync();
    expect((await index.search({ query: 'sourdough rye' })).results[0]?.path).toBe('memory/cooking.md');
    expect((await index.search({ query: 'who owns payment gateway' })).results[0]?.path).toBe('MEMORY.md');
    expect((await index.search({ query: '投资目标' })).results[0]?.path).toBe('memory/finance.md');
    expect((await index.search({ query: '指数基金' })).results[0]?.path).toBe('memory/finance.md');
    expect((await index.search({ query: '定投' })).results[0]?.path).toBe('memory/finance.md');
  });

  it('honours maxResults and minScore, with snippets and scores in 0..1', async () => {
    const index = open();
    await index.sync();
    const result = await index.search({ query: 'the', maxResults: 2, minScore: 0 });
    expect(result.results.length).toBeLessThanOrEqual(2);
    for (const hit of result.results) {
      expect(hit.score).toBeGreaterThanOrEqual(0);
      expect(hit.score).toBeLessThanOrEqual(1);
      expect(hit.snippet.length).toBeGreaterThan(0);
    }
    expect((await index.search({ query: 'zebra-unicorn-nothing' })).results).toEqual([]);
  });
});

describe('temporal decay', () => {
  it('ranks a newer dated note above an older one and leaves evergreen files alone', async () => {
    const now = Date.UTC(2026, 5, 30, 12);
    fx = memoryFixture({ search: { temporalDecay: { enabled: true, halfLifeDays: 30 } } });
    const text = '# Standup\n\nThe release train for project heron moved to Thursday.\n';
    fx.write('memory/2026-01-15.md', text);
    fx.write('memory/2026-06-28.md', text);
    fx.write('memory/heron.md', text);
    const index = fx.open({ clock: { now: () => now } });
    await index.sync();
    const { results } = await index.search({ query: 'heron release train', minScore: 0 });
    const byPath = new Map(results.map((r) => [r.path, r.score]));
    expect(byPath.get('memory/heron.md')).toBe(1);
    expect(byPath.get('memory/2026-06-28.md')!).toBeGreaterThan(byPath.get('memory/2026-01-15.md')!);
    expect(byPath.get('memory/2026-06-28.md')!).toBeCloseTo(0.5 ** ((now - Date.UTC(2026, 5, 28)) / DAY / 30), 2);
    expect(results[0]?.path).toBe('memory/heron.md');

    const withoutDecay = memoryFixture();
    withoutDecay.write('memory/2026-01-15.md', text);
    const plain = withoutDecay.open({ clock: { now: () => now } });
    await plain.sync();
    expect((await plain.search({ query: 'heron release train' })).results[0]?.score).toBe(1);
    await withoutDecay.cleanup();
  });
});

describe('MMR', () => {
  it('prefers a different note over a near-duplicate when enabled', async () => {
    fx = memoryFixture({ search: { mmr: { enabled: true, lambda: 0.5 } } });
    fx.write('memory/a.md', '# Kafka\n\nKafka cluster kafka-prod-1 retention is seven days for topic orders.\n');
    fx.write('memory/b.md', '# Kafka copy\n\nKafka cluster kafka-prod-1 retention is seven days for topic orders.\n');
    fx.write('memory/c.md', '# Kafka consumers\n\nConsumer lag alerts for kafka fire at ten thousand messages.\n');
    const index = fx.open();
    await index.sync();
    const { results } = await index.search({ query: 'kafka retention orders', maxResults: 2, minScore: 0 });
    expect(results.map((r) => r.path).sort()).toContain('memory/c.md');
  });
});

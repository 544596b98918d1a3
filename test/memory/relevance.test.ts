import { cpSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeEmbeddingsServer, type FakeEmbeddingsServer } from '../support/fake-embeddings-server.js';
import { embeddingsConfig, memoryFixture, type MemoryFixture } from './memory-fixture.js';

const corpus = fileURLToPath(new URL('./fixtures/relevance/', import.meta.url));

/** Labelled queries: each must find its file within the top 5. */
const labelled: [query: string, expected: string][] = [
  ['where do postgres backups go', 'memory/infrastructure.md'],
  ['PgBouncer port', 'memory/infrastructure.md'],
  ['pg-main-02.rtm.internal', 'memory/infrastructure.md'],
  ['kubernetes cluster ingress', 'memory/infrastructure.md'],
  ['INC-2291', 'memory/incidents.md'],
  ['why did the certificate expire', 'memory/incidents.md'],
  ['elasticsearch disk full', 'memory/incidents.md'],
  ['Lisbon flight number', 'memory/travel.md'],
  ['hotel confirmation HX-55213', 'memory/travel.md'],
  ['passport expiry', 'memory/travel.md'],
  ['boiler installer phone', 'memory/home.md'],
  ['wifi network name', 'memory/home.md'],
  ['Kleppmann book', 'memory/reading.md'],
  ['who borrowed The Phoenix Project', 'memory/reading.md'],
  ['中文课', 'memory/chinese.md'],
  ['商务汉语', 'memory/chinese.md'],
  ['期末考试', 'memory/chinese.md'],
  ['alerting migration Prometheus', 'memory/2026-03-02.md'],
  ['OPS-7712', 'memory/2026-03-02.md'],
  ['dentist appointment', 'memory/2026-03-09.md'],
  ['domain renewal registrar', 'memory/2026-03-09.md'],
  ['monthly savings index fund', 'memory/finance.md'],
  ['mortgage refinancing', 'memory/finance.md'],
  ['peanut allergy', 'MEMORY.md'],
  ['deploy on Friday rule', 'MEMORY.md'],
  ['weekly report channel', 'MEMORY.md'],
];

let server: FakeEmbeddingsServer;
let fx: MemoryFixture | undefined;
beforeAll(async () => { server = await startFakeEmbeddingsServer({ dims: 256 }); });
afterAll(async () => { await server.close(); });
afterEach(async () => { await fx?.cleanup(); fx = undefined; });

describe.each([
  ['keyword', false],
  ['hybrid', true],
] as const)('relevance (%s)', (mode, withEmbeddings) => {
  it('has recall@5 of at least 0.95 on the labelled queries', async () => {
    fx = memoryFixture(withEmbeddings ? embeddingsConfig(server.baseUrl) : {});
    cpSync(corpus, fx.workspace, { recursive: true });
    const index = fx.open(withEmbeddings ? { provider: undefined } : {});
    await index.sync();
    const misses: string[] = [];
    for (const [query, expected] of labelled) {
      const result = await index.search({ query, maxResults: 5, minScore: 0 });
      expect(result.mode).toBe(mode);
      if (!result.results.some((hit) => hit.path === expected)) misses.push(`${query} → ${result.results.map((h) => h.path).join(', ') || 'nothing'}`);
    }
    const recall = (labelled.length - misses.length) / labelled.length;
    expect(recall, `missed:\n${misses.join('\n')}`).toBeGreaterThanOrEqual(0.95);
  });
});

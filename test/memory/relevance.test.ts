import { cpSync, readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeEmbeddingsServer, type FakeEmbeddingsServer } from '../support/fake-embeddings-server.js';
import { embeddingsConfig, memoryFixture, type MemoryFixture } from './memory-fixture.js';
import { evaluate, type LabelledQuery, type RelevanceReport } from './relevance-metrics.js';
import { topicQueries } from './topic-queries.js';
import { yearQueries } from './year-queries.js';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
// Undated files are dated by their mtime: pin it, so "current state" questions see the same archive every run.
const UNDATED_MTIME = new Date('2026-06-30T12:00:00Z');

let server: FakeEmbeddingsServer;
let fx: MemoryFixture | undefined;
beforeAll(async () => {
  server = await startFakeEmbeddingsServer({ dims: 256 });
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

type Mode = 'keyword' | 'hybrid-minmax' | 'hybrid-rank';

async function run(corpus: string, queries: readonly LabelledQuery[], mode: Mode): Promise<RelevanceReport> {
  const search = mode === 'keyword' ? {} : { search: { fusion: mode === 'hybrid-rank' ? 'rank' : 'minmax' } };
  fx = memoryFixture(mode === 'keyword' ? {} : embeddingsConfig(server.baseUrl, search));
  cpSync(join(fixtures, corpus), fx.workspace, { recursive: true });
  for (const name of ['MEMORY.md', ...readdirSync(join(fx.workspace, 'memory')).map((file) => `memory/${file}`)]) {
    if (!/\d{4}-\d{2}-\d{2}/.test(name)) utimesSync(join(fx.workspace, name), UNDATED_MTIME, UNDATED_MTIME);
  }
  const index = fx.open(mode === 'keyword' ? {} : { provider: undefined });
  await index.sync();
  expect((await index.search({ query: 'atlas' })).mode).toBe(mode === 'keyword' ? 'keyword' : 'hybrid');
  const report = await evaluate(index, queries);
  // The figures are the point of this suite: print them for the run log.
  console.log(
    `relevance ${corpus} ${mode}: ${JSON.stringify({ queries: report.queries, recallAt5: report.recallAt5, mrr: report.mrr, staleAboveCurrent: report.staleAboveCurrent, byKind: report.byKind })}`,
  );
  return report;
}

/**
 * Floors measured when the suite was written (the runs are deterministic); a
 * change that drops below one is a regression. Raise them when ranking gets
 * better. Min–max fusion is measured for comparison with the default (rank)
 * and is allowed the stale answer it puts first today.
 */
const floors: Record<string, Record<Mode, { recallAt5: number; mrr: number; stale: number }>> = {
  relevance: {
    keyword: { recallAt5: 1, mrr: 1, stale: 0 },
    'hybrid-minmax': { recallAt5: 1, mrr: 1, stale: 0 },
    'hybrid-rank': { recallAt5: 1, mrr: 1, stale: 0 },
  },
  year: {
    keyword: { recallAt5: 0.981, mrr: 0.951, stale: 0 },
    'hybrid-minmax': { recallAt5: 0.981, mrr: 0.963, stale: 1 },
    'hybrid-rank': { recallAt5: 0.981, mrr: 0.972, stale: 0 },
  },
};

describe.each([
  ['relevance', topicQueries],
  ['year', yearQueries],
] as const)('relevance on %s', (corpus, queries) => {
  it.each(['keyword', 'hybrid-minmax', 'hybrid-rank'] as const)('%s: recall@5, MRR and stale-above-current stay at their floors', async (mode) => {
    const report = await run(corpus, queries, mode);
    const floor = floors[corpus]![mode];
    expect(report.recallAt5, report.misses.join('\n')).toBeGreaterThanOrEqual(floor.recallAt5);
    expect(report.mrr, report.misses.join('\n')).toBeGreaterThanOrEqual(floor.mrr);
    expect(report.staleAboveCurrent, report.misses.join('\n')).toBeLessThanOrEqual(floor.stale);
  });
});

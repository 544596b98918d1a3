import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeEmbeddingsServer, type FakeEmbeddingsServer } from '../support/fake-embeddings-server.js';
import { embeddingsConfig, memoryFixture, type MemoryFixture } from './memory-fixture.js';

let server: FakeEmbeddingsServer;
let fx: MemoryFixture;

beforeEach(async () => {
  server = await startFakeEmbeddingsServer();
  fx = memoryFixture(embeddingsConfig(server.baseUrl));
});
afterEach(async () => {
  await fx.cleanup();
  await server.close();
});

const embeddedTexts = () => server.requests.flatMap((r) => r.input);

describe('incremental indexing', () => {
  it('re-chunks only changed files and embeds only new chunk hashes', async () => {
    fx.write('MEMORY.md', '# Facts\n\nThe staging database is db-07.staging.internal.\n');
    fx.write('memory/2026-01-10.md', '# Jan 10\n\nMigrated the billing service to Postgres 16.\n');
    fx.write('memory/projects/falcon.md', '# Falcon\n\nFalcon ships on Fridays only.\n');
    const index = fx.open({ provider: undefined });
    const first = await index.sync();
    expect(first).toMatchObject({ filesScanned: 3, filesChanged: 3, filesRemoved: 0, embedded: 3, pendingEmbeddings: 0 });

    const before = embeddedTexts().length;
    const second = await index.sync();
    expect(second).toMatchObject({ filesChanged: 0, embedded: 0, chunksWritten: 0 });
    expect(embeddedTexts().length).toBe(before);

    fx.write('memory/projects/falcon.md', '# Falcon\n\nFalcon ships on Tuesdays now.\n');
    const third = await index.sync();
    expect(third).toMatchObject({ filesScanned: 3, filesChanged: 1, embedded: 1 });
    expect(embeddedTexts().slice(before)).toEqual(['# Falcon\n\nFalcon ships on Tuesdays now.']);
  });

  it('drops deleted files from results and follows renames', async () => {
    fx.write('memory/notes.md', '# Notes\n\nThe wifi password hint is kiwi-banana.\n');
    const index = fx.open({ provider: undefined });
    await index.sync();
    expect((await index.search({ query: 'kiwi-banana' })).results[0]?.path).toBe('memory/notes.md');

    renameSync(join(fx.workspace, 'memory/notes.md'), join(fx.workspace, 'memory/renamed.md'));
    const renamed = await index.sync();
    expect(renamed).toMatchObject({ filesChanged: 1, filesRemoved: 1, embedded: 0, cacheHits: 1 });
    expect((await index.search({ query: 'kiwi-banana' })).results.map((r) => r.path)).toEqual(['memory/renamed.md']);

    fx.remove('memory/renamed.md');
    await index.sync();
    expect((await index.search({ query: 'kiwi-banana' })).results).toEqual([]);
    expect(index.status()).toMatchObject({ files: 0, chunks: 0 });
  });

  it('resumes interrupted embedding without re-embedding finished batches', async () => {
    for (let i = 0; i < 40; i++) fx.write(`memory/topic-${i}.md`, `# Topic ${i}\n\nDistinct fact number ${i} about subject-${i}.\n`);
    const index = fx.open({ provider: undefined });
    // Batches of 16: the first succeeds, then the server fails past the retry budget.
    server.script([{ slowMs: 0 }, 'server_error', 'server_error', 'server_error']);
    const interrupted = await index.sync();
    expect(interrupted.pendingEmbeddings).toBeGreaterThan(0);
    expect(index.status().embeddings.state).toBe('error');
    const doneFirst = 40 - interrupted.pendingEmbeddings;
    expect(doneFirst).toBeGreaterThanOrEqual(16);

    const sentBefore = embeddedTexts().length;
    const resumed = await index.sync();
    expect(resumed).toMatchObject({ filesChanged: 0, embedded: 40 - doneFirst, pendingEmbeddings: 0 });
    const sentAfter = embeddedTexts().slice(sentBefore);
    expect(sentAfter).toHaveLength(40 - doneFirst);
    expect(index.status()).toMatchObject({ embeddedChunks: 40, embeddings: { state: 'ok' } });
  });

  it('force reindex re-chunks everything but takes vectors from the cache', async () => {
    fx.write('MEMORY.md', '# Facts\n\nAlpha.\n\n## More\n\nBeta gamma delta.\n');
    const index = fx.open({ provider: undefined });
    await index.sync();
    const sent = embeddedTexts().length;
    const forced = await index.sync({ force: true });
    expect(forced.filesChanged).toBe(1);
    expect(forced.embedded).toBe(0);
    expect(forced.cacheHits).toBeGreaterThan(0);
    expect(embeddedTexts().length).toBe(sent);
  });
});

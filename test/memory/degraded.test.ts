import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAiEmbeddings, EmbeddingError } from '../../source/memory/index.js';
import { startFakeEmbeddingsServer, type FakeEmbeddingsServer } from '../support/fake-embeddings-server.js';
import { embeddingsConfig, memoryFixture, type MemoryFixture } from './memory-fixture.js';

let server: FakeEmbeddingsServer;
let fx: MemoryFixture;

beforeEach(async () => {
  server = await startFakeEmbeddingsServer();
});
afterEach(async () => {
  await fx?.cleanup();
  await server.close();
});

const note = '# Deploys\n\nThe canary host is canary-2.prod.example.net and rollbacks need OPS approval.\n';

describe('degraded memory is loud and keyword search still works', () => {
  it('says plainly when no embedding provider is configured', async () => {
    fx = memoryFixture();
    fx.write('MEMORY.md', note);
    const index = fx.open();
    await index.sync();
    const status = index.status();
    expect(status).toMatchObject({ mode: 'keyword', embeddings: { state: 'none', provider: 'none' } });
    expect(status.notes.join(' ')).toMatch(/Keyword-only: no embedding provider is configured/);
    const result = await index.search({ query: 'canary host' });
    expect(result.mode).toBe('keyword');
    expect(result.warnings.join(' ')).toMatch(/no embedding provider/);
    expect(result.results[0]?.path).toBe('MEMORY.md');
  });

  it('reports a vector extension that fails to load in status and in search results', async () => {
    fx = memoryFixture(embeddingsConfig(server.baseUrl));
    fx.write('MEMORY.md', note);
    const index = fx.open({ provider: undefined, vecExtensionPath: join(fx.state.dir, 'no-such-vec0.so') });
    const stats = await index.sync();
    expect(stats.embedded).toBe(0);
    expect(server.requests.length).toBe(0);
    const status = index.status();
    expect(status.mode).toBe('keyword');
    expect(status.vector.available).toBe(false);
    expect(status.vector.error).toMatch(/sqlite-vec extension failed to load/);
    expect(index.problems()).toHaveLength(1);
    const result = await index.search({ query: 'canary-2.prod.example.net' });
    expect(result.mode).toBe('keyword');
    expect(result.warnings.join(' ')).toMatch(/sqlite-vec extension failed to load/);
    expect(result.results[0]?.path).toBe('MEMORY.md');
  });

  it('stops at a quota error without retrying, reports it, and keeps keyword search', async () => {
    fx = memoryFixture(embeddingsConfig(server.baseUrl));
    fx.write('MEMORY.md', note);
    const index = fx.open({ provider: undefined });
    server.script(['quota']);
    const stats = await index.sync();
    expect(server.requests).toHaveLength(1);
    expect(stats.pendingEmbeddings).toBe(1);
    const status = index.status();
    expect(status).toMatchObject({ mode: 'keyword', embeddings: { state: 'error' } });
    expect(status.embeddings.error).toMatch(/quota/);
    expect(index.problems().join(' ')).toMatch(/quota/);

    // Background syncs do not hammer an exhausted account; searches do not embed the query either.
    await index.sync();
    const result = await index.search({ query: 'canary host' });
    expect(server.requests).toHaveLength(1);
    expect(result.mode).toBe('keyword');
    expect(result.warnings.join(' ')).toMatch(/quota/);
    expect(result.results[0]?.path).toBe('MEMORY.md');

    // An explicit reindex tries again and recovers.
    const retried = await index.sync({ retryEmbeddings: true });
    expect(retried).toMatchObject({ embedded: 1, pendingEmbeddings: 0 });
    expect(index.status()).toMatchObject({ mode: 'hybrid', embeddings: { state: 'ok' } });
    expect((await index.search({ query: 'canary host' })).mode).toBe('hybrid');
  });

  it('remembers a quota error across restarts until an explicit reindex', async () => {
    fx = memoryFixture(embeddingsConfig(server.baseUrl));
    fx.write('MEMORY.md', note);
    server.script(['auth']);
    const first = fx.open({ provider: undefined });
    await first.sync();
    expect(first.status().embeddings.error).toMatch(/rejected the API key/);
    await first.close();
    const second = fx.open({ provider: undefined });
    await second.sync();
    expect(server.requests).toHaveLength(1);
    expect(second.status().embeddings.error).toMatch(/rejected the API key/);
  });

  it('retries 429 rate limits and 500s, then succeeds', async () => {
    fx = memoryFixture(embeddingsConfig(server.baseUrl));
    fx.write('MEMORY.md', note);
    const index = fx.open({ provider: undefined });
    server.script(['rate_limit', 'server_error']);
    const stats = await index.sync();
    expect(server.requests).toHaveLength(3);
    expect(stats).toMatchObject({ embedded: 1, pendingEmbeddings: 0 });
    expect(index.status().embeddings.state).toBe('ok');
  });

  it('treats a slow server as transient: times out, retries, and gives up with a clear error', async () => {
    const provider = createOpenAiEmbeddings({ baseUrl: server.baseUrl, model: 'fake', batchSize: 8, timeoutMs: 200, maxRetries: 1, retryBaseMs: 10 });
    server.script([{ slowMs: 5000 }, { slowMs: 5000 }]);
    const error = await provider.embed(['hello']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingError);
    expect((error as EmbeddingError).kind).toBe('transient');
    expect((error as EmbeddingError).message).toMatch(/Could not reach the embedding provider/);
    expect(server.requests).toHaveLength(2);
    expect(await provider.embed(['hello'])).toHaveLength(1);
  });

  it('batches inputs and returns vectors in input order', async () => {
    const provider = createOpenAiEmbeddings({ baseUrl: server.baseUrl, model: 'fake', batchSize: 3, timeoutMs: 2000, maxRetries: 0 });
    const texts = ['a one', 'b two', 'c three', 'd four', 'e five', 'f six', 'g seven'];
    const vectors = await provider.embed(texts);
    expect(server.requests.map((r) => r.input.length)).toEqual([3, 3, 1]);
    vectors.forEach((vector, i) => expect(Array.from(vector)).toEqual(Array.from(Float32Array.from(server.vectorFor(texts[i]!)))));
  });
});

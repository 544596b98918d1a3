import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClawError } from '../../source/protocol/index.js';
import { startFakeEmbeddingsServer, type FakeEmbeddingsServer } from '../support/fake-embeddings-server.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { waitFor } from './memory-fixture.js';

let gateway: TestGateway | undefined;
let server: FakeEmbeddingsServer | undefined;
let state: TempState | undefined;
afterEach(async () => {
  await gateway?.stop();
  await server?.close();
  state?.cleanup();
  gateway = undefined;
  server = undefined;
  state = undefined;
});

describe('memory gateway module', () => {
  it('serves memory.status, memory.search and memory.reindex, and watches the workspace', async () => {
    server = await startFakeEmbeddingsServer();
    state = makeTempState();
    const workspace = state.paths.workspace('main');
    mkdirSync(join(workspace, 'memory'), { recursive: true });
    writeFileSync(join(workspace, 'MEMORY.md'), '# Facts\n\nThe NAS lives at nas-01.home.arpa.\n');
    gateway = await startTestGateway({
      state,
      config: { memory: { watchDebounceMs: 100, embeddings: { provider: 'openai', baseUrl: server.baseUrl, model: 'fake-embed', maxRetries: 0 } } },
      core: {},
    });
    const client = await gateway.connect();

    await waitFor(async () => (await client.request('memory.status')).agents[0]!.embeddedChunks === 1, 'the initial sync');
    const { agents } = await client.request('memory.status', { agentId: 'main' });
    expect(agents[0]).toMatchObject({
      agentId: 'main',
      files: 1,
      chunks: 1,
      mode: 'hybrid',
      embeddings: { state: 'ok', model: 'fake-embed' },
      vector: { available: true, dims: 64 },
    });

    const found = await client.request('memory.search', { query: 'nas-01.home.arpa' });
    expect(found.mode).toBe('hybrid');
    expect(found.results[0]).toMatchObject({ path: 'MEMORY.md', startLine: 1, endLine: 3 });

    writeFileSync(join(workspace, 'memory', '2026-03-01.md'), '# March\n\nRenewed the domain home.arpa until 2030.\n');
    await waitFor(async () => (await client.request('memory.status')).agents[0]!.files === 2, 'the watcher');

    const reindex = await client.request('memory.reindex', { force: true });
    expect(reindex).toMatchObject({ agentId: 'main', stats: { filesScanned: 2, filesChanged: 2, embedded: 0 } });
    expect(reindex.stats.cacheHits).toBeGreaterThanOrEqual(1);

    const unknown = await client.request('memory.search', { query: 'x', agentId: 'ghost' }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(ClawError);
    expect((unknown as ClawError).code).toBe('not_found');

    const health = await client.request('health');
    expect(health.checks.memory).toEqual({ ok: true });
  });

  it('reports embedding failures in health', async () => {
    server = await startFakeEmbeddingsServer();
    server.script(['quota']);
    state = makeTempState();
    mkdirSync(join(state.paths.workspace('main'), 'memory'), { recursive: true });
    writeFileSync(join(state.paths.workspace('main'), 'MEMORY.md'), '# Facts\n\nSomething to embed.\n');
    gateway = await startTestGateway({
      state,
      config: { memory: { embeddings: { provider: 'openai', baseUrl: server.baseUrl, model: 'fake-embed' } } },
      core: {},
    });
    const client = await gateway.connect();
    await waitFor(async () => (await client.request('health')).checks.memory?.ok === false, 'the quota error in health');
    const health = await client.request('health');
    expect(health.checks.memory?.detail).toMatch(/quota/);
    const status = (await client.request('memory.status')).agents[0]!;
    expect(status).toMatchObject({ mode: 'keyword', embeddings: { state: 'error' } });
  });
});

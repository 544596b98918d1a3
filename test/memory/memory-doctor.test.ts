import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { memoryDoctorCheck } from '../../source/memory/index.js';
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

describe('memoryDoctorCheck', () => {
  it('keyword-only without an index yet is fine (built at the first search, as a running gateway does); then reports the fresh one', async () => {
    fx = memoryFixture();
    fx.write('MEMORY.md', '# Facts\n\nThe backup bucket is s3://claw-backups-eu.\n');
    const before = await memoryDoctorCheck({ config: fx.config, paths: fx.state.paths });
    expect(before).toMatchObject({
      name: 'memory',
      status: 'ok',
      detail: expect.stringMatching(/keyword-only; the index is built at the first memory search \(`claw memory index` builds it now\)/),
    });

    const index = fx.open();
    await index.sync();
    await index.close();
    const after = await memoryDoctorCheck({ config: fx.config, paths: fx.state.paths, provider: null });
    expect(after).toMatchObject({ status: 'ok', detail: expect.stringMatching(/1 file, 1 chunk, keyword-only.*paraphrases are not/) });
  });

  it('with embeddings and no index yet, says the gateway embeds the files when it starts', async () => {
    fx = memoryFixture(embeddingsConfig(server.baseUrl));
    const check = await memoryDoctorCheck({ config: fx.config, paths: fx.state.paths });
    expect(check).toMatchObject({ status: 'warn', detail: expect.stringMatching(/no index yet/) });
    expect(check.fix).toMatch(/Start the gateway .* or run `claw memory index`/);
  });

  it('warns when files changed since the last index', async () => {
    fx = memoryFixture();
    fx.write('MEMORY.md', '# Facts\n\nOne.\n');
    const index = fx.open();
    await index.sync();
    fx.write('memory/2026-11-18.md', '# New\n\nTwo.\n');
    const check = await memoryDoctorCheck({ config: fx.config, paths: fx.state.paths, provider: null });
    expect(check).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/1 file changed since the last index/),
      fix: expect.stringMatching(/claw memory index/),
    });
  });

  it('fails with the provider error when embeddings stopped on a quota error', async () => {
    fx = memoryFixture(embeddingsConfig(server.baseUrl));
    fx.write('MEMORY.md', '# Facts\n\nOne.\n');
    server.script(['quota']);
    const index = fx.open({ provider: undefined });
    await index.sync();
    await index.close();
    const check = await memoryDoctorCheck({ config: fx.config, paths: fx.state.paths });
    expect(check.status).toBe('fail');
    expect(check.detail).toMatch(/quota/);
    expect(check.fix).toMatch(/claw memory index/);
  });

  it('with probe, catches a provider that now refuses the key', async () => {
    fx = memoryFixture(embeddingsConfig(server.baseUrl));
    fx.write('MEMORY.md', '# Facts\n\nOne.\n');
    const index = fx.open({ provider: undefined });
    await index.sync();
    await index.close();
    expect(await memoryDoctorCheck({ config: fx.config, paths: fx.state.paths, probe: true })).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(/hybrid \(fake-embed\)/),
    });
    server.script(['auth']);
    const check = await memoryDoctorCheck({ config: fx.config, paths: fx.state.paths, probe: true });
    expect(check).toMatchObject({ status: 'fail', detail: expect.stringMatching(/rejected the API key/) });
  });

  it('says so when memory is disabled', async () => {
    fx = memoryFixture({ enabled: false });
    expect(await memoryDoctorCheck({ config: fx.config, paths: fx.state.paths })).toMatchObject({ status: 'ok', detail: expect.stringMatching(/disabled/) });
  });
});

import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeFileAtomicSync } from '../../source/config/index.js';
import type { TestModule } from '../support/gateway-harness.js';
import { InboundJournal } from '../../source/queue/index.js';
import { WriteProbe } from '../../source/sessions/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { failingDisk } from './failing-disk.js';

let gw: TestGateway | undefined;
const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await gw?.stop();
  gw = undefined;
});

describe('/readyz and acceptance while the state dir cannot be written', () => {
  it('readyz is 503 and the journal refuses (with what to do) while writes fail, and both recover without a restart', async () => {
    const disk = failingDisk();
    let probe: WriteProbe | undefined;
    // The wiring the sessions module gets: the probe over the journal's and the sessions' dirs.
    const diskModule: TestModule = ({ paths }) => {
      const dirs = [join(paths.root, 'queue'), paths.sessionsDir('main')];
      for (const dir of dirs) writeFileAtomicSync(join(dir, '.keep'), '');
      probe = new WriteProbe({ dirs: () => dirs, fs: disk, intervalMs: 100 });
      closers.push(() => probe!.stop());
      return { name: 'sessions', handlers: {}, ready: () => probe!.status().ok };
    };
    gw = await startTestGateway({ modules: [diskModule] });
    const base = gw.url.replace('ws://', 'http://');
    const readyz = async (): Promise<number> => (await fetch(`${base}/readyz`)).status;
    const { journal } = await InboundJournal.open(join(gw.state.dir, 'queue', 'inbound.jsonl'), { fs: disk, admit: () => probe!.refusal() });
    closers.push(() => journal.close());
    const input = (id: string) => ({
      dedupeKey: `tui\u0000${id}`,
      runId: `r-${id}`,
      messageId: id,
      sessionKey: 'agent:main:main',
      agentId: 'main',
      channel: 'tui',
      text: id,
      mode: 'followup' as const,
    });

    await probe!.check();
    expect(await readyz()).toBe(200);
    await journal.accept(input('a'));

    disk.mode = 'full';
    await probe!.check();
    expect(await readyz()).toBe(503);
    await expect(journal.accept(input('b'))).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/^Not accepted: the state dir cannot be written \(.*ENOSPC\)\. Free disk space/),
    });
    // healthz stays a liveness check: the process is fine and must not be restarted for a full disk.
    expect((await fetch(`${base}/healthz`)).status).toBe(200);

    disk.mode = 'ok';
    await vi.waitFor(async () => expect(await readyz()).toBe(200), { timeout: 5000, interval: 50 });
    await journal.accept(input('c'));
    await journal.flush();
  });
});

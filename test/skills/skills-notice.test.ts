import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PayloadOf } from '../../source/protocol/index.js';
import { initialState, TuiStore } from '../../source/tui/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';

let gateway: TestGateway | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

describe('a skill added on disk', () => {
  it('is announced once to every client, and the TUI shows the notice', { timeout: 30_000 }, async () => {
    gateway = await startTestGateway({ core: {} });
    const client = await gateway.connect();
    const store = new TuiStore(initialState());
    const seen: Array<PayloadOf<'skills.changed'>> = [];
    client.on('skills.changed', (payload) => {
      seen.push(payload);
      store.applyEvent('skills.changed', payload);
    });
    const folder = join(gateway.state.paths.workspace('main'), 'skills', 'release-notes');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'SKILL.md'),
      '---\nname: release-notes\ndescription: Write release notes from the git log.\n---\nRead the log, group by kind.\n',
    );
    await expect.poll(() => seen.some((change) => change.notice.includes('release-notes')), { timeout: 20_000 }).toBe(true);
    const notices = store.getState().chats['agent:main:main']?.items.filter((item) => item.kind === 'notice' && item.text.includes('release-notes'));
    expect(notices).toHaveLength(1);
    store.dispose();
  });
});

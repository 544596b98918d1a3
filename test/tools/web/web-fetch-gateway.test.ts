import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli-process.js';
import type { RecordedRequest } from '../../support/fake-llm-common.js';
import { startFakeModelDaemon, type FakeModelDaemon } from '../../support/fake-model-daemon.js';

// The built gateway (dist/), whose web_fetch loads turndown, linkedom and Readability from bundles of their own on first use.
const SLOW = 90_000;
let daemon: FakeModelDaemon;
let site: Server;
let url: string;

beforeAll(async () => {
  const news = readFileSync(new URL('./pages/news.html', import.meta.url), 'utf8');
  site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(news));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/2026/harbour`;
  daemon = await startFakeModelDaemon({ timeoutMs: SLOW, config: { tools: { web: { allowPrivate: ['127.0.0.1'] } } } });
}, SLOW);

afterAll(async () => {
  await daemon.stop();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

describe('web_fetch in the built gateway', () => {
  it(
    'returns the article of a real-looking news page, not its menus',
    async () => {
      const toolResult = (request: RecordedRequest): string | undefined => {
        const messages = (request.body.messages ?? []) as Array<{ role: string; content: unknown }>;
        const result = messages.find((m) => m.role === 'tool');
        return result ? String(result.content) : undefined;
      };
      daemon.llm.setDefault((request) => (toolResult(request) ? { text: 'read it' } : { toolCalls: [{ name: 'web_fetch', arguments: { url } }] }));
      const result = await runCli(['agent', '-m', 'read the harbour story'], daemon.state.env, SLOW);
      expect(result.code, result.stderr).toBe(0);
      const fetched = daemon.llm.requests.map(toolResult).find((text) => text !== undefined) ?? '';
      expect(fetched).toContain('extracted="article"');
      expect(fetched).toContain('Marker-11.');
      expect(fetched).not.toContain('Subsection 3.4');
    },
    SLOW,
  );
});

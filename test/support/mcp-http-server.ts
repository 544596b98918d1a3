import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { buildTestMcpServer } from './mcp-test-tools.js';

/**
 * A streamable-HTTP MCP server on 127.0.0.1 (`--port N`, 0 for any). Prints
 * `listening <port>` on stdout when ready. With `--token T` every request must
 * carry `x-test-token: T`.
 */
const argv = process.argv.slice(2);
const option = (name: string) => {
  const index = argv.indexOf(name);
  return index >= 0 ? argv[index + 1] : undefined;
};
const token = option('--token');
const transports = new Map<string, StreamableHTTPServerTransport>();

async function readJson(req: import('node:http').IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  return body ? JSON.parse(body) : undefined;
}

const http = createServer(async (req, res) => {
  if (token !== undefined && req.headers['x-test-token'] !== token) {
    res.writeHead(401, { 'content-type': 'text/plain' }).end('bad token');
    return;
  }
  const body = req.method === 'POST' ? await readJson(req) : undefined;
  const sessionId = req.headers['mcp-session-id'];
  let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
  if (!transport) {
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
      return;
    }
    const created = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void transports.set(id, created),
    });
    created.onclose = () => {
      if (created.sessionId) transports.delete(created.sessionId);
    };
    await buildTestMcpServer('http').connect(created);
    transport = created;
  }
  await transport.handleRequest(req, res, body);
});

http.listen(Number(option('--port') ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${(http.address() as AddressInfo).port}\n`);
});

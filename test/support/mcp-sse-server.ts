import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { buildTestMcpServer } from './mcp-test-tools.js';

/**
 * A legacy HTTP+SSE MCP server on 127.0.0.1 (`GET /sse` opens the stream,
 * `POST /messages?sessionId=` carries requests). Prints `listening <port>`.
 */
const transports = new Map<string, SSEServerTransport>();

const http = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (req.method === 'GET' && url.pathname === '/sse') {
    const transport = new SSEServerTransport('/messages', res);
    transports.set(transport.sessionId, transport);
    transport.onclose = () => transports.delete(transport.sessionId);
    await buildTestMcpServer('sse').connect(transport);
    return;
  }
  const transport = transports.get(url.searchParams.get('sessionId') ?? '');
  if (req.method === 'POST' && url.pathname === '/messages' && transport) {
    await transport.handlePostMessage(req, res);
    return;
  }
  res.writeHead(404).end('unknown session');
});

http.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(http.address() as AddressInfo).port}\n`);
});

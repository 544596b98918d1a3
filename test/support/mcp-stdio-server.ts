import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildTestMcpServer } from './mcp-test-tools.js';

/** Run with `node --import tsx test/support/mcp-stdio-server.ts`. */
const server = buildTestMcpServer('stdio');
await server.connect(new StdioServerTransport());
// The client closing stdin means it is done with us.
process.stdin.on('end', () => process.exit(0));

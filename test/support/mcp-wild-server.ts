import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** The first bytes of a JPEG (all the APIs read to tell the format), then padding. */
const JPEG_BASE64 = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0'), Buffer.alloc(32)]).toString('base64');

/**
 * An MCP server with schemas as servers in the wild write them: property keys
 * with spaces and non-ASCII letters (nested too), `format: uri-reference`, a
 * field that is itself called "format", and an image whose bytes are JPEG
 * while the server says PNG; it declares resources but answers
 * `resources/templates/list` with Method not found, as many published servers
 * do. Run with `node --import tsx`.
 */
const server = new Server({ name: 'wild', version: '1.0.0' }, { capabilities: { tools: {}, resources: {} } });

server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [{ uri: 'wild://notes', name: 'notes' }] }));

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: 'put',
      description: 'Store a file.',
      inputSchema: {
        type: 'object',
        properties: {
          'file path': { type: 'string', format: 'uri-reference' },
          größe: { type: 'integer' },
          format: { type: 'string', enum: ['text', 'binary'] },
          'meta data': { type: 'object', properties: { 'owner name': { type: 'string' } } },
        },
        required: ['file path', 'größe'],
      },
    },
    { name: 'photo', description: 'Take a photo.', inputSchema: { type: 'object', properties: {} } },
    // WILD_BULK=N adds N more, as a server with hundreds of tools does.
    ...Array.from({ length: Number(process.env.WILD_BULK ?? 0) }, (_, i) => ({
      name: `bulk_${i}`,
      description: `Bulk operation ${i}.`,
      inputSchema: { type: 'object' as const, properties: {} },
    })),
  ],
}));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === 'photo') {
    return {
      content: [
        { type: 'text', text: 'one photo' },
        { type: 'image', data: JPEG_BASE64, mimeType: 'image/png' },
      ],
    };
  }
  return { content: [{ type: 'text', text: `received ${JSON.stringify(request.params.arguments)}` }] };
});

await server.connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));

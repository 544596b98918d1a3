import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { RESOURCE_TOOL_NAME } from './resource-tool.js';

type ContentBlock = CallToolResult['content'][number];

export function base64Bytes(data: string): number {
  return Math.floor((data.length * 3) / 4);
}

function describeBlock(block: ContentBlock, server: string): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType}, ${base64Bytes(block.data)} bytes, not shown]`;
    case 'resource':
      return 'text' in block.resource ? block.resource.text : `[resource ${block.resource.uri}, binary, not shown]`;
    case 'resource_link':
      return `[resource link ${block.uri}${block.name ? ` (${block.name})` : ''}: read it with ${RESOURCE_TOOL_NAME} {"server": ${JSON.stringify(server)}, "uri": ${JSON.stringify(block.uri)}}]`;
    default:
      return JSON.stringify(block);
  }
}

/** What the model reads from an MCP call result: text blocks joined, other media described, links made openable. */
export function callResultText(result: CallToolResult, server: string): string {
  const parts = result.content.map((block) => describeBlock(block, server)).filter((part) => part !== '');
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent, null, 2);
  return parts.join('\n\n');
}

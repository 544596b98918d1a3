import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolMedia } from '../types.js';
import { RESOURCE_TOOL_NAME } from './resource-tool.js';

type ContentBlock = CallToolResult['content'][number];

export function base64Bytes(data: string): number {
  return Math.floor((data.length * 3) / 4);
}

function describeBlock(block: ContentBlock, server: string, mediaNumber: number): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} ${mediaNumber}: ${block.mimeType}, ${base64Bytes(block.data)} bytes]`;
    case 'resource':
      return 'text' in block.resource ? block.resource.text : `[resource ${block.resource.uri}, binary, not shown]`;
    case 'resource_link':
      return `[resource link ${block.uri}${block.name ? ` (${block.name})` : ''}: read it with ${RESOURCE_TOOL_NAME} {"server": ${JSON.stringify(server)}, "uri": ${JSON.stringify(block.uri)}}]`;
    default:
      return JSON.stringify(block);
  }
}

/**
 * What the model reads from an MCP call result: text blocks joined, links
 * made openable, and each image or sound described in place and handed on
 * as media (a provider that takes it gets a content part after the text; the
 * others keep only the description).
 */
export function callResult(result: CallToolResult, server: string): { text: string; media: ToolMedia[] } {
  const media: ToolMedia[] = [];
  const parts: string[] = [];
  for (const block of result.content) {
    if (block.type === 'image' || block.type === 'audio') media.push({ kind: block.type, mimeType: block.mimeType, data: block.data });
    const part = describeBlock(block, server, media.length);
    if (part !== '') parts.push(part);
  }
  if (parts.length === 0 && result.structuredContent !== undefined) return { text: JSON.stringify(result.structuredContent, null, 2), media };
  return { text: parts.join('\n\n'), media };
}

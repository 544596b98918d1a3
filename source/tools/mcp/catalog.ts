import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Prompt, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js';

export interface SkippedTool {
  name: string;
  reason: string;
}

/** What a connected server offers, as last listed. */
export interface McpCatalog {
  /** Tools claw offers the model. */
  tools: Tool[];
  /** Tools the server has that claw leaves out, and why. */
  skipped: SkippedTool[];
  prompts: Prompt[];
  resources: Resource[];
  templates: ResourceTemplate[];
}

export type CatalogPart = 'tools' | 'prompts' | 'resources';

export const emptyCatalog = (): McpCatalog => ({ tools: [], skipped: [], prompts: [], resources: [], templates: [] });

const TASK_ONLY = 'it only runs as a task (execution.taskSupport "required"), which claw does not support; the server would refuse a direct call';

async function allPages<T>(fetch: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await fetch(cursor);
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

const page = (cursor: string | undefined) => (cursor ? { cursor } : undefined);

export async function listTools(client: Client, timeout: number): Promise<Pick<McpCatalog, 'tools' | 'skipped'>> {
  if (!client.getServerCapabilities()?.tools) return { tools: [], skipped: [] };
  const all = await allPages(async (cursor) => {
    const result = await client.listTools(page(cursor), { timeout });
    return { items: result.tools, nextCursor: result.nextCursor };
  });
  const tools: Tool[] = [];
  const skipped: SkippedTool[] = [];
  for (const tool of all) {
    if (tool.execution?.taskSupport === 'required') skipped.push({ name: tool.name, reason: TASK_ONLY });
    else tools.push(tool);
  }
  return { tools, skipped };
}

export async function listPrompts(client: Client, timeout: number): Promise<Prompt[]> {
  if (!client.getServerCapabilities()?.prompts) return [];
  return allPages(async (cursor) => {
    const result = await client.listPrompts(page(cursor), { timeout });
    return { items: result.prompts, nextCursor: result.nextCursor };
  });
}

export async function listResources(client: Client, timeout: number): Promise<Pick<McpCatalog, 'resources' | 'templates'>> {
  if (!client.getServerCapabilities()?.resources) return { resources: [], templates: [] };
  const resources = await allPages(async (cursor) => {
    const result = await client.listResources(page(cursor), { timeout });
    return { items: result.resources, nextCursor: result.nextCursor };
  });
  const templates = await allPages(async (cursor) => {
    const result = await client.listResourceTemplates(page(cursor), { timeout });
    return { items: result.resourceTemplates, nextCursor: result.nextCursor };
  });
  return { resources, templates };
}

/** Lists everything the server offers, as connecting does. */
export async function readCatalog(client: Client, timeout: number): Promise<McpCatalog> {
  const [tools, prompts, resources] = await Promise.all([listTools(client, timeout), listPrompts(client, timeout), listResources(client, timeout)]);
  return { ...tools, prompts, ...resources };
}

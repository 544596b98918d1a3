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
  /** Optional lists the server declared but could not give (`resources/templates/list`: Method not found); the server stays usable. */
  warnings: string[];
}

export type CatalogPart = 'tools' | 'prompts' | 'resources';

export const emptyCatalog = (): McpCatalog => ({ tools: [], skipped: [], prompts: [], resources: [], templates: [], warnings: [] });

/**
 * An optional list a server may not implement although it declared the
 * capability (many answer `resources/templates/list` with -32601 Method not
 * found): its failure empties that list and names the method, instead of
 * keeping the whole server from ready.
 */
async function optional<T>(method: string, list: () => Promise<T[]>, warnings: string[]): Promise<T[]> {
  try {
    return await list();
  } catch (error) {
    warnings.push(`${method} failed (${error instanceof Error ? error.message : String(error)}); the server is used without it`);
    return [];
  }
}

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

export async function listPrompts(client: Client, timeout: number, warnings: string[] = []): Promise<Prompt[]> {
  if (!client.getServerCapabilities()?.prompts) return [];
  return optional(
    'prompts/list',
    () =>
      allPages(async (cursor) => {
        const result = await client.listPrompts(page(cursor), { timeout });
        return { items: result.prompts, nextCursor: result.nextCursor };
      }),
    warnings,
  );
}

export async function listResources(client: Client, timeout: number, warnings: string[] = []): Promise<Pick<McpCatalog, 'resources' | 'templates'>> {
  if (!client.getServerCapabilities()?.resources) return { resources: [], templates: [] };
  const resources = await optional(
    'resources/list',
    () =>
      allPages(async (cursor) => {
        const result = await client.listResources(page(cursor), { timeout });
        return { items: result.resources, nextCursor: result.nextCursor };
      }),
    warnings,
  );
  const templates = await optional(
    'resources/templates/list',
    () =>
      allPages(async (cursor) => {
        const result = await client.listResourceTemplates(page(cursor), { timeout });
        return { items: result.resourceTemplates, nextCursor: result.nextCursor };
      }),
    warnings,
  );
  return { resources, templates };
}

/** Lists everything the server offers, as connecting does: the tools must list; prompts and resources may fail alone. */
export async function readCatalog(client: Client, timeout: number): Promise<McpCatalog> {
  const warnings: string[] = [];
  const [tools, prompts, resources] = await Promise.all([
    listTools(client, timeout),
    listPrompts(client, timeout, warnings),
    listResources(client, timeout, warnings),
  ]);
  return { ...tools, prompts, ...resources, warnings };
}

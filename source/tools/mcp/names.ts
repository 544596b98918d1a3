import { createHash } from 'node:crypto';

/** Providers reject longer tool names (OpenAI caps function names at 64). */
export const MAX_TOOL_NAME_LENGTH = 64;

export function sanitizeNamePart(part: string): string {
  const cleaned = part.replace(/[^A-Za-z0-9_-]/g, '_');
  return cleaned === '' ? '_' : cleaned;
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/**
 * `mcp__<server>__<tool>` with every character outside [A-Za-z0-9_-] replaced.
 * A name that is too long, or that collides once sanitised (`a.b` vs `a_b`),
 * gets a short hash of the original pair so it stays unique and stable.
 */
export function mcpToolName(server: string, tool: string, taken: (name: string) => boolean = () => false): string {
  const base = `mcp__${sanitizeNamePart(server)}__${sanitizeNamePart(tool)}`;
  if (base.length <= MAX_TOOL_NAME_LENGTH && !taken(base)) return base;
  const suffix = `_${shortHash(`${server}\u0000${tool}`)}`;
  return `${base.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length)}${suffix}`;
}

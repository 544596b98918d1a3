/** What a transcript line contributes to search: the text a person typed or read. */
export interface SearchableMessage {
  entryId: string;
  role: 'user' | 'assistant';
  timestamp: number;
  text: string;
}

/**
 * Parses one transcript line into its searchable text, or undefined for lines
 * search skips (tool results, synthetic turns, headers, torn lines). Parsed by
 * hand rather than with the zod schema: indexing reads every line of every
 * transcript, and only four fields matter.
 */
export function searchableMessage(line: string): SearchableMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const entry = value as { type?: unknown; role?: unknown; id?: unknown; timestamp?: unknown; content?: unknown; meta?: { synthetic?: unknown } };
  if (entry.type !== 'message' || typeof entry.id !== 'string' || typeof entry.timestamp !== 'number') return undefined;
  if (entry.role === 'user') {
    if (typeof entry.content !== 'string' || entry.meta?.synthetic) return undefined;
    return { entryId: entry.id, role: 'user', timestamp: entry.timestamp, text: entry.content };
  }
  if (entry.role !== 'assistant' || !Array.isArray(entry.content)) return undefined;
  const text = entry.content
    .flatMap((block: unknown) =>
      typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text' && typeof (block as { text?: unknown }).text === 'string'
        ? [(block as { text: string }).text]
        : [],
    )
    .join('');
  // NO_REPLY is the agent declining to answer; it is never shown, so never found.
  if (text.trim() === '' || text.trim() === 'NO_REPLY') return undefined;
  return { entryId: entry.id, role: 'assistant', timestamp: entry.timestamp, text };
}

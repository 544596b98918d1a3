import { isSummaryMessage, SUMMARY_PREFIX } from '../context/index.js';
import type { HistoryMessage } from '../turn-types.js';
import type { Identifier } from './identifiers.js';
import type { Unit } from './units.js';

export const SUMMARY_SECTIONS = ['Decisions', 'Open TODOs', 'Constraints', 'Pending user asks', 'Exact identifiers'] as const;

export const SUMMARISER_SYSTEM = `You compress conversations between a user and an AI assistant into a summary the assistant will continue from. You never continue the conversation yourself and never call tools. Write in the language of the conversation.`;

const format = `Write the summary as markdown with exactly these sections, in this order:
${SUMMARY_SECTIONS.map((name) => `## ${name}`).join('\n')}

Under "Exact identifiers" list, verbatim and character for character, every identifier that matters: ids, UUIDs, hashes, URLs, file paths, host names, IP addresses, ports, ticket numbers. Never shorten or paraphrase them. Leave a section with "- none" when it has nothing.`;

function renderMessage(message: HistoryMessage): string {
  if (message.role === 'user')
    return isSummaryMessage(message) ? `Summary of what came before:\n${message.content.slice(SUMMARY_PREFIX.length)}` : `User: ${message.content}`;
  if (message.role === 'toolResult') return `Tool result (${message.toolName}${message.isError ? ', error' : ''}): ${message.content}`;
  const parts: string[] = [];
  for (const block of message.content) {
    if (block.type === 'text' && block.text) parts.push(`Assistant: ${block.text}`);
    else if (block.type === 'toolCall') parts.push(`Assistant called ${block.name} ${JSON.stringify(block.arguments)}`);
  }
  return parts.join('\n');
}

/** The full text of units: what identifiers are checked against. */
export function renderUnits(units: readonly Unit[]): string {
  return renderMessages(units.flatMap((unit) => unit.messages));
}

/** Messages as the summariser reads them (and as a review shows them). */
export function renderMessages(messages: readonly HistoryMessage[]): string {
  return messages.map(renderMessage).filter(Boolean).join('\n\n');
}

/**
 * The text of units for a summariser input of at most `maxChars`: a unit that
 * alone is larger keeps its head and tail (identifiers lost in the cut are
 * restored by the mechanical check afterwards).
 */
export function renderChunk(units: readonly Unit[], maxChars: number): string {
  const text = renderUnits(units);
  if (text.length <= maxChars) return text;
  const head = Math.floor(maxChars * 0.7);
  const tail = Math.floor(maxChars * 0.25);
  return `${text.slice(0, head)}\n[… ${text.length - head - tail} characters omitted …]\n${text.slice(text.length - tail)}`;
}

function budgetLine(budgetTokens: number): string {
  return `Keep the whole summary under about ${budgetTokens} tokens (${budgetTokens * 3} characters).`;
}

function extra(instructions: string | undefined): string {
  return instructions?.trim() ? `\n\nThe user asked for this compaction with these instructions; follow them: ${instructions.trim()}` : '';
}

export function chunkPrompt(text: string, index: number, count: number, budgetTokens: number, instructions?: string): string {
  const which = count > 1 ? `This is part ${index + 1} of ${count} of the older conversation, in order.` : 'This is the older part of the conversation.';
  return `${which} Summarise it.\n\n${format}\n\n${budgetLine(budgetTokens)}${extra(instructions)}\n\n<conversation>\n${text}\n</conversation>`;
}

export function mergePrompt(partials: readonly string[], budgetTokens: number, instructions?: string): string {
  const blocks = partials.map((partial, index) => `<partial index="${index + 1}">\n${partial}\n</partial>`).join('\n');
  return `These are summaries of consecutive parts of one conversation, oldest first. Merge them into one summary; later parts win where they disagree, and keep every identifier.\n\n${format}\n\n${budgetLine(budgetTokens)}${extra(instructions)}\n\n${blocks}`;
}

export function missingIdentifiersPrompt(summary: string, missing: readonly Identifier[], budgetTokens: number, instructions?: string): string {
  const list = missing.map((identifier) => `- ${identifier.value}`).join('\n');
  return `This summary left out identifiers from the conversation it summarises. Rewrite the whole summary so that each of these appears verbatim (under "Exact identifiers" or where it belongs):\n${list}\n\n${format}\n\n${budgetLine(budgetTokens)}${extra(instructions)}\n\n<summary>\n${summary}\n</summary>`;
}

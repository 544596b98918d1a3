export type { Align, Block, Inline, ListItem } from './tree.js';
export { parseMarkdown, inlineText, wellFormed } from './parse.js';
export { decodeEntities } from './entities.js';
export { renderTelegram, renderTelegramPreview, escapeHtml, cutPoint, TELEGRAM_TEXT_LIMIT } from './telegram-html.js';
export { renderTerminal, wrapSpans, type Measure, type TermColor, type TermLine, type TermSpan } from './terminal.js';

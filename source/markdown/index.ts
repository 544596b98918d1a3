export type { Align, Block, Inline, ListItem } from './tree.js';
export { parseMarkdown, inlineText, wellFormed } from './parse.js';
export { decodeEntities } from './entities.js';
export { renderTelegram, renderTelegramPreview, escapeHtml, cutPoint, TELEGRAM_TEXT_LIMIT } from './telegram-html.js';

import type { ChannelCredential } from '../adapter.js';

const TOKEN_SHAPE = /^\d+:[A-Za-z0-9_-]{20,}$/;

/** A Telegram bot token, from @BotFather: its shape is checked before it is stored or used, so a paste error is caught at once. */
export const telegramCredential: ChannelCredential = {
  label: 'bot token',
  prompt: 'Telegram bot token (from @BotFather; not shown): ',
  check(token) {
    const trimmed = token.trim();
    if (!TOKEN_SHAPE.test(trimmed)) {
      throw new Error('That does not look like a Telegram bot token (digits, a colon, then 20+ letters, digits, "-" or "_"). Copy it again from @BotFather.');
    }
    return trimmed;
  },
};

import type { ChannelCredential } from '../adapter.js';

/** Three base64url parts separated by dots: the bot's id, a timestamp, an HMAC. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{18,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$/;

export const discordCredential: ChannelCredential = {
  label: 'bot token',
  prompt: 'Discord bot token (Developer Portal → your app → Bot → Reset Token; not shown): ',
  check(token) {
    const trimmed = token.trim().replace(/^Bot\s+/i, '');
    if (!TOKEN_SHAPE.test(trimmed)) {
      throw new Error(
        'That does not look like a Discord bot token (three parts separated by dots). Copy it again from the Developer Portal: your application → Bot → Reset Token.',
      );
    }
    return trimmed;
  },
};

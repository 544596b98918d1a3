import { describe, expect, it } from 'vitest';
import { nonceOf } from '../../source/channels/discord/send.js';
import { routeOf } from '../../source/channels/discord/rest.js';
import { DISCORD_TEXT_LIMIT, quietMentions, splitDiscord } from '../../source/channels/discord/split.js';

describe('Discord message parts', () => {
  it('keeps a short reply whole and cuts a long one at paragraph boundaries, each part within 2,000', () => {
    expect(splitDiscord('**hello** world')).toEqual(['**hello** world']);
    const paragraphs = Array.from({ length: 30 }, (_, i) => `Paragraph ${i}: ${'word '.repeat(20).trim()}.`);
    const parts = splitDiscord(paragraphs.join('\n\n'));
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(DISCORD_TEXT_LIMIT);
      expect(part).toMatch(/^Paragraph \d+:/);
      expect(part).toMatch(/\.$/);
    }
    expect(parts.join('\n\n')).toBe(paragraphs.join('\n\n'));
  });

  it('closes a code fence cut in two and opens it again, with its language, in the next part', () => {
    const code = Array.from({ length: 200 }, (_, i) => `print(${i})  # a line of python`).join('\n');
    const parts = splitDiscord(`Here:\n\n\`\`\`python\n${code}\n\`\`\`\n\nDone.`);
    expect(parts.length).toBeGreaterThanOrEqual(3);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(DISCORD_TEXT_LIMIT);
      expect((part.match(/^```/gm) ?? []).length % 2).toBe(0);
    }
    expect(parts[1]!.startsWith('```python\n')).toBe(true);
    const lines = parts
      .join('\n')
      .split('\n')
      .filter((l) => l.startsWith('print('));
    expect(lines).toHaveLength(200);
    expect(parts.at(-1)!.endsWith('Done.')).toBe(true);
  });

  it('cuts one line longer than a part between words, never inside an emoji', () => {
    const line = '👩‍👩‍👧 '.repeat(700);
    const parts = splitDiscord(line);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(DISCORD_TEXT_LIMIT);
      expect(part.replace(/👩‍👩‍👧|\s/gu, '')).toBe('');
    }
  });

  it('never pings: @everyone and @here become text', () => {
    expect(quietMentions('hey @everyone and @here, mail me@example.com')).toBe('hey @\u200beveryone and @\u200bhere, mail me@example.com');
  });

  it('names rate-limit routes by their major parameter and a nonce within 25 characters, one per part', () => {
    expect(routeOf('PATCH', '/channels/123456789012345678/messages/223456789012345678')).toBe('PATCH /channels/123456789012345678/messages/:id');
    expect(routeOf('PUT', '/channels/123456789012345678/messages/223456789012345678/reactions/%F0%9F%91%8D/@me')).toBe(
      'PUT /channels/123456789012345678/messages/:id/reactions/:emoji',
    );
    expect(routeOf('POST', '/interactions/123456789012345678/tok-en/callback')).toBe('POST /interactions/:id/:token/callback');
    expect(nonceOf('run-1', 0)).toHaveLength(25);
    expect(nonceOf('run-1', 0)).not.toBe(nonceOf('run-1', 1));
    expect(nonceOf('run-1', 0)).toBe(nonceOf('run-1', 0));
  });
});

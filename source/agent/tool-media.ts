import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolMediaRef } from '../protocol/index.js';
import type { ProviderMedia, ProviderMessage } from '../providers/index.js';
import type { ToolMedia } from '../tools/index.js';
import type { HistoryMessage } from './turn-types.js';

/** Larger than any provider accepts (20 MB): such an item could never be sent, so it is not kept either. */
export const MAX_STORED_MEDIA_BYTES = 20 * 1024 * 1024;

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
};

/**
 * Writes a tool result's media beside the transcript, one file per item
 * named by its hash (the same screenshot twice is one file), and returns the
 * references the transcript line keeps instead of megabytes of base64.
 * Items over the limit are left out with a note for the result text.
 */
export async function storeToolMedia(sessionsDir: string, media: readonly ToolMedia[]): Promise<{ refs: ToolMediaRef[]; notes: string[] }> {
  const refs: ToolMediaRef[] = [];
  const notes: string[] = [];
  const dir = join(sessionsDir, 'media');
  await mkdir(dir, { recursive: true });
  for (const [index, item] of media.entries()) {
    const bytes = Buffer.from(item.data, 'base64');
    if (bytes.length > MAX_STORED_MEDIA_BYTES) {
      notes.push(`[${item.kind} ${index + 1} (${bytes.length} bytes) was dropped: larger than any model accepts]`);
      continue;
    }
    const name = `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.${EXTENSIONS[item.mimeType] ?? 'bin'}`;
    await writeFile(join(dir, name), bytes, { mode: 0o600 });
    refs.push({ kind: item.kind, mimeType: item.mimeType, bytes: bytes.length, file: `media/${name}` });
  }
  return { refs, notes };
}

/** Tool results that reference media get it loaded for the model call; a missing file leaves only the result's description. */
export async function withAttachments(sessionsDir: string, messages: readonly HistoryMessage[]): Promise<readonly ProviderMessage[]> {
  if (!messages.some((message) => message.role === 'toolResult' && message.media?.length)) return messages;
  return Promise.all(
    messages.map(async (message): Promise<ProviderMessage> => {
      if (message.role !== 'toolResult' || !message.media?.length) return message;
      const attachments: ProviderMedia[] = [];
      for (const ref of message.media) {
        const data = await readFile(join(sessionsDir, ref.file)).catch(() => undefined);
        if (data) attachments.push({ kind: ref.kind, mimeType: ref.mimeType, data: data.toString('base64') });
      }
      return { ...message, attachments };
    }),
  );
}

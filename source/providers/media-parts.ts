import type { ProviderMedia } from './types.js';

const MB = 1024 * 1024;

/** What one provider accepts as media in a request: types and the size of each item (decoded bytes). */
export interface MediaLimits {
  provider: string;
  imageTypes: readonly string[];
  maxImageBytes: number;
  audioTypes: readonly string[];
  maxAudioBytes: number;
}

/** The Messages API: jpeg/png/gif/webp images up to 5 MB each, no audio input. */
export const ANTHROPIC_MEDIA: MediaLimits = {
  provider: 'Anthropic',
  imageTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
  maxImageBytes: 5 * MB,
  audioTypes: [],
  maxAudioBytes: 0,
};

/** Chat Completions: png/jpeg/webp/gif images up to 20 MB each; wav and mp3 as `input_audio` on audio models only. */
export function openAiMedia(modelId: string): MediaLimits {
  return {
    provider: 'the OpenAI-compatible API',
    imageTypes: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'],
    maxImageBytes: 20 * MB,
    audioTypes: /audio/i.test(modelId) ? ['audio/wav', 'audio/x-wav', 'audio/mpeg', 'audio/mp3'] : [],
    maxAudioBytes: 20 * MB,
  };
}

export function decodedBytes(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

const megabytes = (bytes: number): string => `${(bytes / MB).toFixed(1)} MB`;

/**
 * The image format the bytes are in, read from their first bytes: the APIs
 * check the data against the declared type, and a server's label is not
 * always right (JPEG sent as image/png).
 */
export function sniffImageType(base64: string): string | undefined {
  const head = Buffer.from(base64.slice(0, 24), 'base64');
  const ascii = (from: number, to: number): string => head.subarray(from, to).toString('latin1');
  if (head[0] === 0x89 && ascii(1, 4) === 'PNG') return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (ascii(0, 4) === 'GIF8') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

/** The item with the type its bytes say, or a reason it cannot be sent as an image at all. */
function relabel(item: ProviderMedia): ProviderMedia | string {
  if (item.kind !== 'image') return item;
  const actual = sniffImageType(item.data);
  if (actual === undefined) return 'its bytes are not a JPEG, PNG, GIF or WebP image';
  return actual === item.mimeType ? item : { ...item, mimeType: actual };
}

/**
 * Splits a tool result's media into what the provider takes and, for each
 * item it does not, a note for the model saying why (the result text already
 * describes every item). An image goes with the type its bytes say, whatever
 * it was labelled. Nothing is downscaled: an oversized image is refused whole
 * rather than sent in a form the tool did not produce.
 */
export function admitMedia(media: readonly ProviderMedia[], limits: MediaLimits): { accepted: ProviderMedia[]; notes: string[] } {
  const accepted: ProviderMedia[] = [];
  const notes: string[] = [];
  media.forEach((declared, index) => {
    const item = relabel(declared);
    if (typeof item === 'string') {
      notes.push(`[${declared.kind} ${index + 1} (${declared.mimeType}) is not attached: ${item}]`);
      return;
    }
    const types = item.kind === 'image' ? limits.imageTypes : limits.audioTypes;
    const max = item.kind === 'image' ? limits.maxImageBytes : limits.maxAudioBytes;
    const bytes = decodedBytes(item.data);
    const label = `${item.kind} ${index + 1} (${item.mimeType}, ${megabytes(bytes)})`;
    if (types.length === 0) notes.push(`[${label} is not attached: ${limits.provider} takes no ${item.kind} input for this model]`);
    else if (!types.includes(item.mimeType)) notes.push(`[${label} is not attached: ${limits.provider} takes ${item.kind}s as ${types.join(', ')} only]`);
    else if (bytes > max) notes.push(`[${label} is not attached: over the ${megabytes(max)} limit of ${limits.provider}]`);
    else accepted.push(item);
  });
  return { accepted, notes };
}

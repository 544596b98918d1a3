import { describe, expect, it } from 'vitest';
import { messagesBody } from '../../source/providers/anthropic-messages.js';
import { chatCompletionsBody } from '../../source/providers/openai-messages.js';
import type { ProviderMedia, ProviderMessage, ResolvedModel, WireRequest } from '../../source/providers/index.js';

const model = (api: 'openai' | 'anthropic', id: string): ResolvedModel => ({
  ref: `p/${id}`,
  provider: 'p',
  id,
  api,
  baseUrl: 'http://127.0.0.1:9',
  headers: {},
  contextWindow: 100_000,
  maxOutput: 4096,
  cost: { input: 0, output: 0 },
  reasoning: false,
  known: true,
});

function request(api: 'openai' | 'anthropic', id: string, attachments: ProviderMedia[]): WireRequest {
  const messages: ProviderMessage[] = [
    { role: 'user', content: 'look' },
    { role: 'assistant', content: [{ type: 'toolCall', id: 't1', name: 'shot', arguments: {} }] },
    { role: 'toolResult', toolCallId: 't1', toolName: 'shot', content: 'two things', isError: false, attachments },
  ];
  return {
    model: model(api, id),
    auth: { id: 'none', apiKey: undefined },
    system: '',
    messages,
    tools: [],
    thinking: 'off',
    maxOutputTokens: 100,
    signal: undefined,
  };
}

/** Base64 of `bytes` bytes that start with `magic` (what the APIs sniff). */
const ofSize = (bytes: number, magic: readonly number[] = []): string => {
  const buffer = Buffer.alloc(bytes);
  buffer.set(magic);
  return buffer.toString('base64');
};
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff, 0xe0];
const TIFF = [0x49, 0x49, 0x2a, 0x00];
const small: ProviderMedia = { kind: 'image', mimeType: 'image/png', data: ofSize(10, PNG) };
const huge: ProviderMedia = { kind: 'image', mimeType: 'image/png', data: ofSize(6 * 1024 * 1024, PNG) };
const tiff: ProviderMedia = { kind: 'image', mimeType: 'image/tiff', data: ofSize(10, TIFF) };
const wav: ProviderMedia = { kind: 'audio', mimeType: 'audio/wav', data: ofSize(10) };

describe('tool-result media within each provider’s limits', () => {
  it('Anthropic: images up to 5 MB as image parts; larger ones, other types and audio become notes', () => {
    const body = messagesBody(request('anthropic', 'claude', [small, huge, tiff, wav]));
    const result = (body.messages as Array<{ content: Array<Record<string, unknown>> }>)[2]!.content[0]!;
    const parts = result.content as Array<{ type: string; text?: string }>;
    expect(parts.map((p) => p.type)).toEqual(['text', 'image']);
    expect(parts[0]!.text).toBe(
      [
        'two things',
        '[image 2 (image/png, 6.0 MB) is not attached: over the 5.0 MB limit of Anthropic]',
        '[image 3 (image/tiff) is not attached: its bytes are not a JPEG, PNG, GIF or WebP image]',
        '[audio 4 (audio/wav, 0.0 MB) is not attached: Anthropic takes no audio input for this model]',
      ].join('\n'),
    );
  });

  it('OpenAI-compatible: a 6 MB image is within its 20 MB; audio goes as input_audio only to audio models', () => {
    const plain = chatCompletionsBody(request('openai', 'gpt-4o', [huge, wav])).messages as Array<{ role: string; content: unknown }>;
    expect(plain.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(String(plain[2]!.content)).toContain('[audio 2 (audio/wav, 0.0 MB) is not attached: the OpenAI-compatible API takes no audio input for this model]');
    expect((plain[3]!.content as Array<{ type: string }>).map((p) => p.type)).toEqual(['text', 'image_url']);

    const audio = chatCompletionsBody(request('openai', 'gpt-4o-audio-preview', [wav])).messages as Array<{ role: string; content: unknown }>;
    expect(audio[3]!.content).toEqual([
      { type: 'text', text: 'Media returned by the shot call t1:' },
      { type: 'input_audio', input_audio: { data: wav.data, format: 'wav' } },
    ]);
  });

  it('an image goes with the type its bytes say: JPEG labelled PNG is sent as JPEG, bytes of no image format not at all', () => {
    const mislabelled: ProviderMedia = { kind: 'image', mimeType: 'image/png', data: ofSize(10, JPEG) };
    const garbage: ProviderMedia = { kind: 'image', mimeType: 'image/png', data: ofSize(10) };
    const body = messagesBody(request('anthropic', 'claude', [mislabelled, garbage]));
    const parts = (body.messages as Array<{ content: Array<Record<string, unknown>> }>)[2]!.content[0]!.content as Array<Record<string, unknown>>;
    expect(parts).toEqual([
      { type: 'text', text: 'two things\n[image 2 (image/png) is not attached: its bytes are not a JPEG, PNG, GIF or WebP image]' },
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: mislabelled.data } },
    ]);
    const chat = chatCompletionsBody(request('openai', 'gpt-4o', [mislabelled])).messages as Array<{ content: unknown }>;
    expect(JSON.stringify(chat[3]!.content)).toContain('data:image/jpeg;base64,');
  });

  it('a result without media is sent exactly as before', () => {
    const body = messagesBody(request('anthropic', 'claude', []));
    expect((body.messages as Array<{ content: Array<Record<string, unknown>> }>)[2]!.content[0]!.content).toBe('two things');
    expect((chatCompletionsBody(request('openai', 'gpt-4o', [])).messages as unknown[]).length).toBe(3);
  });
});

import { describe, expect, it } from 'vitest';
import { messagesBytes } from '../../source/providers/anthropic-body.js';
import { messagesBody } from '../../source/providers/anthropic-messages.js';
import { JsonStringEncoder } from '../../source/providers/json-bytes.js';
import { chatCompletionsBytes } from '../../source/providers/openai-body.js';
import { chatCompletionsBody } from '../../source/providers/openai-messages.js';
import type { ProviderMessage, ResolvedModel, ToolSchema, WireRequest } from '../../source/providers/index.js';

const model: ResolvedModel = {
  ref: 'p/m',
  provider: 'p',
  id: 'm',
  api: 'openai',
  baseUrl: 'http://127.0.0.1:9',
  headers: {},
  contextWindow: 100_000,
  maxOutput: 4096,
  cost: { input: 0, output: 0 },
  reasoning: true,
  known: true,
};

const tools: ToolSchema[] = [
  { name: 'read', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'exec', description: 'Run "a" command\n', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } },
];

/** A system prompt of the shape turns send: a long head and tail around a clock that changes. */
function systemAt(clock: string, bootstrap = 'Practical guidance, “quoted” — with a … and 🙂 emoji. '.repeat(400)): string {
  return `You are claw.\n${'Safety rules \\ and "quotes".\n'.repeat(200)}## Runtime\n- time: ${clock}\n## Workspace files\n${bootstrap}`;
}

function request(system: string, messages: ProviderMessage[]): WireRequest {
  return { model, auth: { id: 'none', apiKey: undefined }, system, messages, tools, thinking: 'low', maxOutputTokens: 100, signal: undefined };
}

const history: ProviderMessage[] = [
  { role: 'user', content: 'look at 🙂 and \u0000 and "this"' },
  { role: 'assistant', content: [{ type: 'thinking', text: 'hmm' }] },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Reading.' },
      { type: 'toolCall', id: 't1', name: 'read', arguments: { path: 'a.md' } },
    ],
  },
  { role: 'toolResult', toolCallId: 't1', toolName: 'read', content: 'text', isError: false },
  {
    role: 'toolResult',
    toolCallId: 't2',
    toolName: 'shot',
    content: 'an image',
    isError: true,
    attachments: [{ kind: 'image', mimeType: 'image/png', data: Buffer.alloc(8).toString('base64') }],
  },
  { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
];

const parsed = (bytes: Buffer): unknown => JSON.parse(bytes.toString('utf8'));

describe('request bodies built from reused pieces', () => {
  it('are the same JSON as the body object, turn after turn, while the clock and the history change', () => {
    const messages = [...history];
    for (let turn = 0; turn < 6; turn += 1) {
      const wire = request(systemAt(`16:5${turn}:0${turn} 🙂`), messages);
      expect(parsed(chatCompletionsBytes(wire))).toEqual(chatCompletionsBody(wire));
      messages.push({ role: 'user', content: `message ${turn}` }, { role: 'assistant', content: [{ type: 'text', text: `reply ${turn}` }] });
    }
  });

  it('reuse the last call of a conversation for its history, and notice when the history is not the same', () => {
    const plain = history.filter((message) => !(message.role === 'toolResult' && message.attachments));
    const messages = [...plain];
    const other: ProviderMessage[] = [{ role: 'user', content: 'another conversation' }];
    for (let turn = 0; turn < 4; turn += 1) {
      for (const wire of [request(systemAt(`11:00:0${turn}`), messages), request('', messages), request(systemAt('x'), other)]) {
        expect(parsed(chatCompletionsBytes(wire))).toEqual(chatCompletionsBody(wire));
      }
      messages.push({ role: 'user', content: `message ${turn}` }, { role: 'assistant', content: [{ type: 'text', text: `reply ${turn}` }] });
      other.push({ role: 'assistant', content: [] }, { role: 'user', content: `again ${turn}` });
    }
    // The same first message with a different history after it (a branch): not the last run.
    const branched = [messages[0]!, { role: 'user' as const, content: 'a different second message' }];
    expect(parsed(chatCompletionsBytes(request('', branched)))).toEqual(chatCompletionsBody(request('', branched)));
    const shorter = messages.slice(0, 3);
    expect(parsed(chatCompletionsBytes(request('', shorter)))).toEqual(chatCompletionsBody(request('', shorter)));
  });

  it('are the same JSON as the Messages API body object, with and without a system prompt', () => {
    const anthropic = (system: string): WireRequest => ({ ...request(system, history), model: { ...model, api: 'anthropic' } });
    for (const clock of ['08:00:00', '08:00:01', '08:00:02']) {
      const wire = anthropic(systemAt(clock));
      expect(parsed(messagesBytes(wire))).toEqual(messagesBody(wire));
    }
    expect(parsed(messagesBytes(anthropic('')))).toEqual(messagesBody(anthropic('')));
  });

  it('follow an edited bootstrap file, a compacted history and an empty system prompt', () => {
    const first = request(systemAt('10:00:00'), history);
    chatCompletionsBytes(first);
    chatCompletionsBytes(request(systemAt('10:00:01'), history));
    const edited = request(systemAt('10:00:02', `${'An edited AGENTS.md. '.repeat(300)}`), history);
    expect(parsed(chatCompletionsBytes(edited))).toEqual(chatCompletionsBody(edited));
    const compacted = request(systemAt('10:00:03'), [{ role: 'user', content: '[Summary of the earlier conversation]\nall of it' }, history[5]!]);
    expect(parsed(chatCompletionsBytes(compacted))).toEqual(chatCompletionsBody(compacted));
    const bare = request('', history.slice(0, 1));
    expect(parsed(chatCompletionsBytes(bare))).toEqual(chatCompletionsBody(bare));
  });
});

describe('JsonStringEncoder', () => {
  const encoded = (encoder: JsonStringEncoder, text: string): string => Buffer.concat(encoder.encode(text)).toString('utf8');

  it('encodes every string exactly as JSON.stringify, whatever it shares with the ones before', () => {
    const encoder = new JsonStringEncoder();
    const pair = '🙂';
    const base = `${'a'.repeat(5000)}${pair}${'b'.repeat(5000)}`;
    // Changes next to and inside surrogate pairs: a shared head or tail must never split one.
    const texts = [
      base,
      base.replace(pair, '🙃'),
      base.replace(pair, `${pair}x`),
      `${base}\n"tail"`,
      `"head"${base}`,
      base,
      base,
      'short',
      `${'c'.repeat(6000)}\u2028${'d'.repeat(6000)}`,
      `${'c'.repeat(6000)}\u2029${'d'.repeat(6000)}`,
      // Lone high surrogates, which JSON.stringify escapes one by one.
      `${'\ud83d'.repeat(3000)}${'x'.repeat(3000)}`,
      `${'\ud83d'.repeat(2999)}y${'x'.repeat(3000)}`,
      // A head or tail that ends in a lone half, then a text where that half has its partner.
      `${'h'.repeat(5000)}\ud83dA${'t'.repeat(5000)}`,
      `${'h'.repeat(5000)}\ud83dB${'t'.repeat(5000)}`,
      `${'h'.repeat(5000)}\ud83d\ude00${'t'.repeat(5000)}`,
      `${'h'.repeat(5000)}A\ude00${'t'.repeat(5000)}`,
      `${'h'.repeat(5000)}B\ude00${'t'.repeat(5000)}`,
      `${'h'.repeat(5000)}\ud83d\ude00${'t'.repeat(5000)}`,
    ];
    for (const text of texts) expect(encoded(encoder, text)).toBe(JSON.stringify(text));
  });

  it('reuses the shared head and tail: the pieces of a repeat are the ones encoded before', () => {
    const encoder = new JsonStringEncoder();
    // The first is remembered, the second shows what stays the same, the third on reuse it.
    encoder.encode(systemAt('09:00:00'));
    encoder.encode(systemAt('09:00:01'));
    const third = encoder.encode(systemAt('09:00:02'));
    const fourth = encoder.encode(systemAt('09:00:03'));
    expect(fourth).toHaveLength(5);
    expect(fourth[1]).toBe(third[1]);
    expect(fourth[3]).toBe(third[3]);
    expect(fourth[2]!.length).toBeLessThan(10);
    expect(Buffer.concat(fourth).toString('utf8')).toBe(JSON.stringify(systemAt('09:00:03')));
  });
});

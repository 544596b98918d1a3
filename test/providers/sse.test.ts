import { describe, expect, it } from 'vitest';
import { readSse } from '../../source/providers/sse.js';

async function parse(chunks: string[]) {
  const encoder = new TextEncoder();
  async function* body() {
    for (const chunk of chunks) yield encoder.encode(chunk);
  }
  const out = [];
  for await (const message of readSse(body())) out.push(message);
  return out;
}

describe('SSE parsing', () => {
  it('handles messages split across chunks, CRLF and CR line ends, comments and multi-line data', async () => {
    expect(await parse(['event: a\r', '\ndata: {"x"', ':1}\r\n\r\n: keep-alive\n\ndata: one\ndata: two\n\n', 'data:tight\r\rdata: tail'])).toEqual([
      { event: 'a', data: '{"x":1}' },
      { event: undefined, data: 'one\ntwo' },
      { event: undefined, data: 'tight' },
      { event: undefined, data: 'tail' },
    ]);
  });

  it('decodes UTF-8 sequences split between chunks', async () => {
    const bytes = new TextEncoder().encode('data: 中文\n\n');
    async function* body() {
      yield bytes.slice(0, 7);
      yield bytes.slice(7);
    }
    const out = [];
    for await (const message of readSse(body())) out.push(message.data);
    expect(out).toEqual(['中文']);
  });
});

/** One Server-Sent Events message: the `event:` name (if any) and joined `data:` lines. */
export interface SseMessage {
  event: string | undefined;
  data: string;
}

/**
 * Parses an SSE byte stream (WHATWG framing: lines end in LF, CRLF or CR; a
 * blank line ends a message; `:` lines are comments). Unlike browsers, a
 * final message without its blank line is still delivered: some servers
 * close right after the last `data:` line.
 */
export async function* readSse(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event: string | undefined;
  let data: string[] = [];

  const takeLine = (line: string): SseMessage | undefined => {
    if (line === '') {
      const message = data.length > 0 ? { event, data: data.join('\n') } : undefined;
      event = undefined;
      data = [];
      return message;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    return undefined;
  };

  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    // Walk the buffer with a cursor and remembered CR/LF positions: rescanning
    // (or re-slicing) the rest for every line is quadratic in a large chunk.
    let pos = 0;
    let lf = buffer.indexOf('\n');
    let cr = buffer.indexOf('\r');
    for (;;) {
      if (lf >= 0 && lf < pos) lf = buffer.indexOf('\n', pos);
      if (cr >= 0 && cr < pos) cr = buffer.indexOf('\r', pos);
      const lineEnd = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
      if (lineEnd < 0) break;
      // A CR at the very end may be the first half of a CRLF still in flight.
      if (lineEnd === cr && lineEnd + 1 === buffer.length) break;
      const skip = lineEnd === cr && lf === lineEnd + 1 ? 2 : 1;
      const message = takeLine(buffer.slice(pos, lineEnd));
      pos = lineEnd + skip;
      if (message) yield message;
    }
    buffer = buffer.slice(pos);
  }
  buffer += decoder.decode();
  for (const line of [...buffer.split(/\r\n|\r|\n/), '']) {
    const message = takeLine(line);
    if (message) yield message;
  }
}

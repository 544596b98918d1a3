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
    let lineEnd: number;
    while ((lineEnd = findLineEnd(buffer)) >= 0) {
      // A CR at the very end may be the first half of a CRLF still in flight.
      if (buffer[lineEnd] === '\r' && lineEnd + 1 === buffer.length) break;
      const skip = buffer[lineEnd] === '\r' && buffer[lineEnd + 1] === '\n' ? 2 : 1;
      const message = takeLine(buffer.slice(0, lineEnd));
      buffer = buffer.slice(lineEnd + skip);
      if (message) yield message;
    }
  }
  buffer += decoder.decode();
  for (const line of [...buffer.split(/\r\n|\r|\n/), '']) {
    const message = takeLine(line);
    if (message) yield message;
  }
}

function findLineEnd(text: string): number {
  const lf = text.indexOf('\n');
  const cr = text.indexOf('\r');
  if (lf < 0) return cr;
  if (cr < 0) return lf;
  return Math.min(lf, cr);
}

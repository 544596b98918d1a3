/** One Server-Sent Events message: the `event:` name (if any) and joined `data:` lines. */
export interface SseMessage {
  event: string | undefined;
  data: string;
}

/**
 * Parses an SSE byte stream (per the WHATWG framing: lines ending in LF, CRLF
 * or CR; a blank line ends a message; `:` lines are comments).
 */
export async function* readSse(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event: string | undefined;
  let data: string[] = [];
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let lineEnd: number;
    while ((lineEnd = findLineEnd(buffer)) >= 0) {
      const line = buffer.slice(0, lineEnd);
      const skip = buffer[lineEnd] === '\r' && buffer[lineEnd + 1] === '\n' ? 2 : 1;
      // A lone CR at the very end may be half of a CRLF still in flight.
      if (buffer[lineEnd] === '\r' && lineEnd + 1 === buffer.length) break;
      buffer = buffer.slice(lineEnd + skip);
      if (line === '') {
        if (data.length > 0) yield { event, data: data.join('\n') };
        event = undefined;
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') data.push(value);
      else if (field === 'event') event = value;
    }
  }
  if (data.length > 0) yield { event, data: data.join('\n') };
}

function findLineEnd(text: string): number {
  const lf = text.indexOf('\n');
  const cr = text.indexOf('\r');
  if (lf < 0) return cr;
  if (cr < 0) return lf;
  return Math.min(lf, cr);
}

import { writeSync } from 'node:fs';
import { quietOnClosedPipe } from './closed-pipe.js';

/**
 * Writes `text` to fd 1 directly. For the answers the executable gives on
 * its own (help, version): `process.stdout` on a pipe loads Node's stream
 * and net modules first, about 8 ms, a fifth of what bare node costs. A
 * closed pipe ends the output quietly, as quietOnClosedPipe does; a
 * non-blocking stdout that is full gets the rest through process.stdout,
 * which waits for it to drain.
 */
export function writeStdoutSync(text: string): void {
  const buffer = Buffer.from(text);
  let offset = 0;
  while (offset < buffer.length) {
    try {
      offset += writeSync(1, buffer, offset);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') return;
      if (code !== 'EAGAIN') throw error;
      quietOnClosedPipe();
      process.stdout.write(buffer.subarray(offset));
      return;
    }
  }
}

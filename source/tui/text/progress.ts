import type { TurnProgress } from '../store/state.js';
import type { Line } from './chat-lines.js';
import { formatDuration } from './format.js';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** The in-chat line of a running turn: spinner, elapsed time, the tool it is in. */
export function progressLine(progress: TurnProgress, now: number, streaming: boolean): Line {
  const elapsed = Math.max(0, now - progress.startedAt);
  const frame = SPINNER[Math.floor(elapsed / 1000) % SPINNER.length]!;
  const doing = progress.tool ? `running ${progress.tool}` : streaming ? 'replying' : 'thinking';
  return { text: `${frame} ${doing} · ${formatDuration(elapsed)} · Esc abort`, color: 'magenta' };
}

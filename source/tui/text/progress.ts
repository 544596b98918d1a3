import type { TurnProgress } from '../store/state.js';
import type { Line } from './chat-lines.js';
import { formatDuration } from './format.js';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** What the turn is doing now; a provider backing off counts down to its next try. */
function activity(progress: TurnProgress, now: number, streaming: boolean): string {
  const retry = progress.retry;
  if (retry && now < retry.until) {
    const seconds = Math.ceil((retry.until - now) / 1000);
    return `${retry.model} failed (${retry.reason}) · retry ${retry.attempt} in ${seconds}s`;
  }
  if (progress.previewing) return 'waiting to compact (c now · p postpone)';
  return progress.tool ? `running ${progress.tool}` : streaming ? 'replying' : 'thinking';
}

/** The in-chat line of a running turn: spinner, elapsed time, the tool it is in, a retry countdown. */
export function progressLine(progress: TurnProgress, now: number, streaming: boolean): Line {
  const elapsed = Math.max(0, now - progress.startedAt);
  const frame = SPINNER[Math.floor(elapsed / 1000) % SPINNER.length]!;
  const doing = activity(progress, now, streaming);
  return { text: `${frame} ${doing} · ${formatDuration(elapsed)} · Esc abort`, color: 'magenta' };
}

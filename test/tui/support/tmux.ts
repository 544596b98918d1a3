import { execFileSync, spawnSync } from 'node:child_process';

/** `value` as one word of the shell command a tmux pane runs. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export function hasTmux(): boolean {
  return spawnSync('tmux', ['-V']).status === 0;
}

/** A tmux server of its own (private socket), so tests never touch the user's sessions. */
export class TmuxTerminal {
  private readonly socket = `claw-tui-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  private readonly target = 'tui';

  constructor(command: string, size: { cols: number; rows: number }) {
    this.tmux('new-session', '-d', '-s', this.target, '-x', String(size.cols), '-y', String(size.rows), command);
  }

  /** The visible text of the pane (no escape codes). */
  screen(): string {
    return this.tmux('capture-pane', '-p', '-t', this.target);
  }

  alternateScreenOn(): boolean {
    return this.tmux('display', '-p', '-t', this.target, '#{alternate_on}').trim() === '1';
  }

  keys(...keys: string[]): void {
    this.tmux('send-keys', '-t', this.target, ...keys);
  }

  /** Literal text, not key names. */
  type(text: string): void {
    this.tmux('send-keys', '-t', this.target, '-l', text);
  }

  resize(cols: number, rows: number): void {
    this.tmux('resize-window', '-t', this.target, '-x', String(cols), '-y', String(rows));
  }

  kill(): void {
    spawnSync('tmux', ['-L', this.socket, 'kill-server']);
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  }
}

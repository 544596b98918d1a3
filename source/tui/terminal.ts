/**
 * Alternate screen, bracketed paste, alternate scroll (the wheel sends Up/Down
 * instead of scrolling the terminal's own buffer, and the mouse is not captured,
 * so selecting and copying still work) and cursor state, restored on every way out.
 */
const ENTER = '\x1b[?1049h\x1b[?2004h\x1b[?1007h\x1b[H\x1b[2J';
const LEAVE = '\x1b[?1007l\x1b[?2004l\x1b[?25h\x1b[?1049l';
const CLEAR = '\x1b[2J\x1b[H';

export interface TerminalSession {
  /** Leaves the alternate screen; safe to call more than once. */
  restore(): void;
  /** Hands the terminal to another program (an editor) and takes it back after. */
  suspend<T>(run: () => T): T;
  dispose(): void;
}

/**
 * Switches `stdout` to the alternate screen and installs handlers so the
 * terminal is given back on quit, Ctrl+C, crash, SIGTERM and SIGHUP. `onSignal`
 * lets the app unmount before the process exits.
 */
export function enterTerminal(stdout: NodeJS.WriteStream, onFatal: (code: number, error?: unknown) => void): TerminalSession {
  let restored = false;
  const restore = (): void => {
    if (restored) return;
    restored = true;
    stdout.write(LEAVE);
  };
  stdout.write(ENTER);
  // Registered before Ink's own listener so the old frame is gone before the new one is drawn.
  const onResize = (): void => {
    if (!restored) stdout.write(CLEAR);
  };
  const onSignal = (signal: NodeJS.Signals): void => onFatal(signal === 'SIGHUP' ? 129 : signal === 'SIGINT' ? 130 : 143);
  const onCrash = (error: unknown): void => onFatal(1, error);
  stdout.on('resize', onResize);
  process.on('exit', restore);
  for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) process.on(signal, onSignal);
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  return {
    restore,
    suspend(run) {
      stdout.write(LEAVE);
      try {
        return run();
      } finally {
        stdout.write(ENTER);
      }
    },
    dispose() {
      restore();
      stdout.off('resize', onResize);
      process.off('exit', restore);
      for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) process.off(signal, onSignal);
      process.off('uncaughtException', onCrash);
      process.off('unhandledRejection', onCrash);
    },
  };
}

import type { Key } from 'ink';

export type KeyHandler = (input: string, key: Key, raw: string | undefined) => void;

/**
 * In alternate scroll mode (`ESC[?1007h`) the terminal turns a wheel notch into
 * several Up or Down keys written at once, and leaves the mouse alone so
 * selecting and copying text still works. A key pressed by hand arrives alone.
 * Ink hands the keys of one read to its listeners synchronously, so arrows are
 * held until the end of the current microtask: two or more in the same
 * direction are a wheel turn, anything else is replayed as typed. `onWheel`
 * gets the lines (positive = up) and may decline, when a list on screen should
 * take them as arrows.
 */
export function wheelFilter(onKey: KeyHandler, onWheel: (lines: number) => boolean): KeyHandler {
  let held: { input: string; key: Key; raw: string | undefined }[] = [];
  const release = (): void => {
    if (held.length === 0) return;
    const keys = held;
    held = [];
    const up = keys.every((k) => k.key.upArrow);
    const down = keys.every((k) => k.key.downArrow);
    if (keys.length >= 2 && (up || down) && onWheel(up ? keys.length : -keys.length)) return;
    for (const k of keys) onKey(k.input, k.key, k.raw);
  };
  return (input, key, raw) => {
    const plainArrow = (key.upArrow || key.downArrow) && !key.ctrl && !key.meta && !key.shift;
    if (!plainArrow) {
      release();
      onKey(input, key, raw);
      return;
    }
    if (held.length === 0) queueMicrotask(release);
    held.push({ input, key, raw });
  };
}

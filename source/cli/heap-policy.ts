type V8 = Pick<typeof import('node:v8'), 'setFlagsFromString'>;

/**
 * Heap sizing for the long-running gateway process. Its live heap is small
 * (25-35 MB after a full collection, measured over 20,000 turns), but under
 * a burst of concurrent turns V8's defaults let the old generation grow to
 * about four times the live size and the young generation to 32 MB, and
 * keep both while idle: RSS went to ~195 MB (bench/rss-turns.mjs). Growing
 * the old generation by at most 20% over what survives, and keeping the
 * young generation at its starting size, held it at ~132 MB. V8 reads both
 * flags each time it resizes the heap. Set before the daemon's modules
 * load: loading them otherwise grows the young generation (to 8 MB in some
 * starts) and it never shrinks back. For `claw gateway run` only, never the
 * CLI's other commands. Callers pass node:v8: only the gateway's and the
 * TUI's starts load it.
 */
export function applyGatewayHeapPolicy(v8: V8): void {
  v8.setFlagsFromString('--heap-growing-percent=20');
  v8.setFlagsFromString('--semi-space-growth-factor=1');
}

/**
 * The TUI's: the young generation stays at its starting size. V8 otherwise
 * grows it to 16 MB while the modules load and keeps it, about 12 MB of the
 * TUI's RSS, for a process whose live heap is under 20 MB. Also set before
 * the TUI's bundle compiles: V8 checks a code cache against its flags.
 */
export function applyTuiHeapPolicy(v8: V8): void {
  v8.setFlagsFromString('--semi-space-growth-factor=1');
}

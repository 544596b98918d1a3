import { setFlagsFromString } from 'node:v8';

/**
 * Heap sizing for the long-running gateway process. Its live heap is small
 * (25-35 MB after a full collection, measured over 20,000 turns), but under
 * a burst of concurrent turns V8's defaults let the old generation grow to
 * about four times the live size and the young generation to 32 MB, and
 * keep both while idle: RSS went to ~195 MB (bench/rss-turns.mjs). Growing
 * the old generation by at most 20% over what survives, and keeping the
 * young generation at its starting size, held it at ~132 MB. V8 reads both
 * flags each time it resizes the heap, so setting them at start-up works.
 * Called by the gateway process only, never by the CLI or the TUI.
 */
export function applyGatewayHeapPolicy(): void {
  setFlagsFromString('--heap-growing-percent=20');
  setFlagsFromString('--semi-space-growth-factor=1');
}

/** Tunables of context management; `claw.json` compaction.* maps onto these. */
export interface ContextSettings {
  /** Tokens kept free for the reply and the next tool results. */
  reserveTokens: number;
  /** The reserve never goes below this (on windows large enough to afford it). */
  reserveTokensFloor: number;
  /** Recent history kept verbatim by a compaction. */
  keepRecentTokens: number;
  /** Summariser attempts per compaction trigger. */
  maxAttempts: number;
  memoryFlush: {
    enabled: boolean;
    /** The flush runs this many tokens before the compaction threshold. */
    softThresholdTokens: number;
  };
  /** Largest share of the window one tool result may take. */
  toolResultMaxShare: number;
}

export const defaultContextSettings: ContextSettings = {
  reserveTokens: 20_000,
  reserveTokensFloor: 20_000,
  keepRecentTokens: 20_000,
  maxAttempts: 3,
  memoryFlush: { enabled: true, softThresholdTokens: 4_000 },
  toolResultMaxShare: 0.5,
};

export interface ContextThresholds {
  window: number;
  reserve: number;
  /** Above this many tokens a silent memory-flush turn runs (once per compaction cycle). */
  flush: number;
  /** Above this many tokens the history is compacted. */
  compact: number;
  /** Tokens of recent history a compaction keeps verbatim. */
  keepRecent: number;
}

/**
 * The token marks for one window. A 20k floor would leave nothing of an 8k
 * local model, so on small windows the reserve is capped at half the window
 * and the kept tail at half of what remains; the flush mark keeps its distance
 * from the compaction mark but never drops below three quarters of it.
 */
export function contextThresholds(window: number, settings: ContextSettings = defaultContextSettings): ContextThresholds {
  const reserve = Math.min(Math.max(settings.reserveTokens, settings.reserveTokensFloor), Math.floor(window / 2));
  const compact = window - reserve;
  const flush = Math.max(Math.floor(compact * 0.75), compact - settings.memoryFlush.softThresholdTokens);
  const keepRecent = Math.min(settings.keepRecentTokens, Math.floor(compact / 2));
  return { window, reserve, flush, compact, keepRecent };
}

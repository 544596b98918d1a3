/** What a handler may answer; only blocking events read `block`, only agent:bootstrap reads `bootstrap`. */
export interface HookResult {
  block?: boolean;
  reason?: string;
  /** Text added to the bootstrap context of the turn (agent:bootstrap). */
  bootstrap?: string;
}

/** Reads whatever a handler returned or printed; anything unrecognised counts as "no opinion". */
export function readHookResult(value: unknown): HookResult | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const result: HookResult = {};
  if (record.block === true) result.block = true;
  if (typeof record.reason === 'string' && record.reason.trim()) result.reason = record.reason.trim();
  if (typeof record.bootstrap === 'string' && record.bootstrap.trim()) result.bootstrap = record.bootstrap;
  return Object.keys(result).length > 0 ? result : undefined;
}

export const HEARTBEAT_OK = 'HEARTBEAT_OK';
/** Text around HEARTBEAT_OK a quiet reply may carry (a model likes to add a word or two). */
export const QUIET_SLACK_CHARS = 300;

/**
 * Whether a heartbeat reply means "nothing to report": empty, NO_REPLY, or
 * HEARTBEAT_OK at its start or end (markup around it ignored) with at most
 * QUIET_SLACK_CHARS of other text.
 */
export function isQuietReply(text: string): boolean {
  const plain = text.replace(/[*`~]/g, '').trim();
  if (plain === '' || plain === 'NO_REPLY') return true;
  const atStart = /^HEARTBEAT_OK(?![A-Z0-9_])/i.exec(plain);
  const atEnd = /(?<![A-Z0-9_])HEARTBEAT_OK[.!\s]*$/i.exec(plain);
  const match = atStart ?? atEnd;
  if (!match) return false;
  const rest = atStart ? plain.slice(match[0].length) : plain.slice(0, match.index);
  return rest.trim().length <= QUIET_SLACK_CHARS;
}

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
  const upper = plain.toUpperCase();
  const atStart = upper.startsWith(HEARTBEAT_OK);
  const atEnd = upper.replace(/[.!\s]+$/, '').endsWith(HEARTBEAT_OK);
  if (!atStart && !atEnd) return false;
  const rest = atStart ? plain.slice(HEARTBEAT_OK.length) : plain.replace(/[.!\s]+$/, '').slice(0, -HEARTBEAT_OK.length);
  return rest.trim().length <= QUIET_SLACK_CHARS;
}

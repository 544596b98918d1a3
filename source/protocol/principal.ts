/**
 * Who is asking, set by the trigger that produced a message and never by its
 * text (DESIGN.md §8). It picks the tool profile a turn gets, the commands it
 * may run and whose approval counts.
 */
export type Principal =
  | 'owner'
  | 'contact'
  | 'group-member'
  | 'heartbeat'
  | `webhook:${string}`
  | `cron:${string}`
  | `subagent-of:${string}`
  | `agent:${string}`;

export const principalKinds = ['owner', 'contact', 'group-member', 'webhook', 'cron', 'heartbeat', 'subagent', 'agent'] as const;
export type PrincipalKind = (typeof principalKinds)[number];

const PREFIXED: ReadonlyArray<readonly [string, PrincipalKind]> = [
  ['webhook:', 'webhook'],
  ['cron:', 'cron'],
  ['subagent-of:', 'subagent'],
  ['agent:', 'agent'],
];

/** The kind of a principal; anything unknown counts as a contact (never as the owner). */
export function principalKind(principal: string | undefined): PrincipalKind {
  if (principal === 'owner' || principal === 'contact' || principal === 'group-member' || principal === 'heartbeat') return principal;
  return PREFIXED.find(([prefix]) => principal?.startsWith(prefix))?.[1] ?? 'contact';
}

/** People and systems outside the owner's control: their turns get the narrow tool profile by default. */
export const OUTSIDE_KINDS: ReadonlySet<PrincipalKind> = new Set(['contact', 'group-member', 'webhook']);

/** The least trusted of several principals (a turn answering messages from more than one). */
export function leastTrusted(principals: readonly (string | undefined)[]): string | undefined {
  return principals.find((p) => OUTSIDE_KINDS.has(principalKind(p))) ?? principals.find((p) => p !== undefined && p !== 'owner') ?? principals[0];
}

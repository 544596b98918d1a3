import { gatewaySnapshot, type ApprovalRecord, type GatewaySnapshot, type HelloPayload, type PayloadOf } from '../../protocol/index.js';
import { reduceConfigStatus } from './config-reducer.js';
import { emptyChat, type TuiState } from './state.js';
import { appendItems, updateChat } from './chat-reducer.js';
import { RESET_NOTICE_PREFIX } from './command-answers.js';
import { selectClientName } from './selectors.js';
import { reduceElicitationList } from './elicitation.js';

export function reduceSessionsChanged(state: TuiState, payload: PayloadOf<'sessions.changed'>): TuiState {
  const sessions = { ...state.sessions };
  if (payload.reason === 'deleted') delete sessions[payload.key];
  else if (payload.session) sessions[payload.key] = payload.session;
  const next = { ...state, sessions };
  if (payload.reason !== 'reset') return next;
  // The old report is not this session's: the gateway publishes the new one.
  const context = { ...next.context };
  delete context[payload.key];
  return updateChat({ ...next, context }, payload.key, () => ({
    ...emptyChat(),
    items: [{ kind: 'notice', id: `${RESET_NOTICE_PREFIX}${payload.session?.sessionId ?? Date.now()}`, text: 'New session started.' }],
  }));
}

/** Replaces the pending list from a list reply or snapshot, minus requests already seen resolved. */
export function reducePendingList(state: TuiState, approvals: readonly ApprovalRecord[]): TuiState {
  const pending = approvals.filter((a) => a.status === 'pending' && !state.approvals.resolvedIds.includes(a.id));
  return { ...state, approvals: { ...state.approvals, pending } };
}

export function reduceApprovalRequested(state: TuiState, payload: PayloadOf<'approval.requested'>): TuiState {
  if (state.approvals.pending.some((a) => a.id === payload.approval.id)) return state;
  return { ...state, approvals: { ...state.approvals, pending: [...state.approvals.pending, payload.approval] } };
}

export function describeResolution(approval: ApprovalRecord, by = approval.resolvedBy): string {
  const what =
    approval.status === 'expired'
      ? 'expired (denied)'
      : approval.decision === 'deny' || approval.status === 'denied'
        ? 'denied'
        : `approved (${approval.decision ?? 'once'})`;
  return `Approval for \`${approval.command}\` ${what}${by ? ` by ${by}` : ''}.`;
}

/** Closes the prompt for a request decided anywhere, and says who decided it. */
export function reduceApprovalResolved(state: TuiState, payload: PayloadOf<'approval.resolved'>, now: number): TuiState {
  const { approval } = payload;
  const wasPending = state.approvals.pending.some((a) => a.id === approval.id);
  const pending = state.approvals.pending.filter((a) => a.id !== approval.id);
  const ui = state.ui.confirmAlways === approval.id ? { ...state.ui, confirmAlways: undefined } : state.ui;
  const resolvedIds = [...state.approvals.resolvedIds, approval.id].slice(-200);
  const next: TuiState = { ...state, ui, approvals: { pending, resolvedIds, lastResolved: { approval, at: now } } };
  if (!wasPending) return next;
  return updateChat(next, approval.sessionKey, (log) =>
    appendItems(log, [
      {
        kind: 'notice',
        id: `approval:${approval.id}`,
        text: describeResolution(approval, approval.resolvedBy ? selectClientName(state, approval.resolvedBy) : undefined),
      },
    ]),
  );
}

/**
 * Applies a hello (first connect or reconnect). Each snapshot key is validated
 * alone against the protocol's schema, so one unknown shape hides nothing else.
 */
export function reduceHello(state: TuiState, hello: HelloPayload): TuiState {
  let next: TuiState = {
    ...state,
    conn: { ...state.conn, state: 'open', host: hello.server.host, version: hello.server.version, methods: hello.methods },
  };
  const snap = hello.snapshot;
  const pick = <K extends keyof GatewaySnapshot>(key: K): GatewaySnapshot[K] | undefined => {
    // Once per connection: compiling zod's fast path would cost more than the parse.
    const parsed = gatewaySnapshot.shape[key].safeParse(snap[key], { jitless: true });
    return parsed.success ? (parsed.data as GatewaySnapshot[K]) : undefined;
  };
  const approvals = pick('approvals');
  if (approvals) next = reducePendingList(next, approvals);
  const sessions = pick('sessions');
  if (sessions) next = { ...next, sessions: Object.fromEntries(sessions.map((s) => [s.key, s])) };
  const lanes = pick('lanes');
  if (lanes) next = { ...next, lanes };
  const context = pick('context');
  if (context) next = { ...next, context: { ...next.context, ...Object.fromEntries(context.map((c) => [c.sessionKey, c])) } };
  // Clients that were here first are known only from the snapshot: their names label their messages.
  const presence = pick('presence');
  if (presence) next = { ...next, clients: { ...next.clients, ...Object.fromEntries(presence.map((c) => [c.clientId, c])) } };
  const subagents = pick('subagents');
  if (subagents) next = { ...next, subagents: subagents.nodes };
  const config = pick('config');
  if (config && config.state !== 'ok') next = reduceConfigStatus(next, config);
  const schedule = pick('schedule');
  if (schedule) next = { ...next, schedule };
  const channels = pick('channels');
  if (channels) next = { ...next, channels };
  const plugins = pick('plugins');
  if (plugins) next = { ...next, plugins };
  const cooldowns = pick('cooldowns');
  if (cooldowns) next = { ...next, cooldowns };
  const spend = pick('spend');
  if (spend) next = { ...next, spend };
  const previews = pick('compactionPreviews');
  if (previews) next = { ...next, compactionPreviews: Object.fromEntries(previews.map((preview) => [preview.sessionKey, preview])) };
  const browserTabs = pick('browserTabs');
  if (browserTabs) next = { ...next, browserTabs: Object.fromEntries(browserTabs.map((entry) => [entry.sessionKey, entry.tabs])) };
  const elicitations = pick('mcpElicitations');
  if (elicitations) next = reduceElicitationList(next, elicitations);
  return next;
}

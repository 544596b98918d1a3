import type { ApprovalMode, ApprovalRecord, SessionSummary, SubagentNode } from '../../protocol/index.js';
import { footerModel } from '../setup/setup-state.js';
import { sessionLabel } from '../text/session-origin.js';
import { descendantsOf } from '../text/tree.js';
import { scheduleGlance, scheduleNeedsAttention } from './schedule-view.js';
import { emptyChat, SIDE_PANES, type ChatLog, type PaneId, type TuiState } from './state.js';

const EMPTY = emptyChat();

export function selectChat(state: TuiState, key = state.currentKey): ChatLog {
  return state.chats[key] ?? EMPTY;
}

export function selectCurrentSession(state: TuiState): SessionSummary | undefined {
  return state.sessions[state.currentKey];
}

export interface SessionRow {
  kind: 'agent' | 'session';
  key: string;
  label: string;
  running: boolean;
  queued: number;
  unread: number;
  current: boolean;
}

/** Agents with their sessions under them; the current session is always listed. */
export function selectSessionRows(state: TuiState): SessionRow[] {
  const list = Object.values(state.sessions);
  if (!state.sessions[state.currentKey]) {
    list.push({ key: state.currentKey, agentId: state.agentId } as SessionSummary);
  }
  const byAgent = new Map<string, SessionSummary[]>();
  for (const s of list) byAgent.set(s.agentId, [...(byAgent.get(s.agentId) ?? []), s]);
  const rows: SessionRow[] = [];
  for (const agentId of [...byAgent.keys()].sort()) {
    rows.push({ kind: 'agent', key: `agent:${agentId}`, label: agentId, running: false, queued: 0, unread: 0, current: false });
    const sessions = byAgent.get(agentId)!.sort((a, b) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0));
    for (const s of sessions) {
      const lane = state.lanes?.lanes.find((l) => l.key === s.key);
      rows.push({
        kind: 'session',
        key: s.key,
        label: sessionLabel(s),
        // Lane events are live; the session summary is only as fresh as its last change.
        running: state.lanes ? Boolean(lane?.active) : Boolean(s.running) || selectChat(state, s.key).running,
        queued: state.lanes ? (lane?.depth ?? 0) : (s.queued ?? 0),
        unread: state.unread[s.key] ?? 0,
        current: s.key === state.currentKey,
      });
    }
  }
  return rows;
}

export function selectSessionKeys(state: TuiState): string[] {
  return selectSessionRows(state)
    .filter((r) => r.kind === 'session')
    .map((r) => r.key);
}

export interface FooterInfo {
  model: string;
  thinking: string;
  /** The session's approval mode (`/mode`, Shift+Tab). */
  mode: ApprovalMode;
  used: number;
  window: number;
  pendingApprovals: number;
  running: boolean;
}

const APPROVAL_MODES: readonly ApprovalMode[] = ['ask', 'auto-edit', 'plan'];

/** The mode Shift+Tab moves to. */
export function nextApprovalMode(mode: ApprovalMode): ApprovalMode {
  return APPROVAL_MODES[(APPROVAL_MODES.indexOf(mode) + 1) % APPROVAL_MODES.length]!;
}

export function selectFooter(state: TuiState): FooterInfo {
  const session = selectCurrentSession(state);
  const context = state.context[state.currentKey];
  return {
    model: session?.model ?? state.runModel[state.currentKey] ?? state.defaultModel[state.currentKey] ?? footerModel(state.setupStatus, state.modelMissing),
    thinking: session?.thinking ?? state.defaultThinking[state.currentKey] ?? 'default',
    mode: session?.approvalMode ?? 'ask',
    used: context?.used ?? session?.tokens.context ?? 0,
    window: context?.window ?? 0,
    pendingApprovals: state.approvals.pending.length,
    running: selectChat(state).running,
  };
}

/** The approval the prompt shows: the oldest pending one. */
export function selectActiveApproval(state: TuiState): ApprovalRecord | undefined {
  return state.approvals.pending.find((a) => !state.ui.dismissed.includes(a.id));
}

export interface ContextSegment {
  name: string;
  tokens: number;
  cells: number;
}

/** Splits `width` cells of the bar among the parts in proportion to their tokens. */
export function contextSegments(parts: readonly { name: string; tokens: number }[], window: number, width: number): ContextSegment[] {
  if (window <= 0 || width <= 0) return [];
  let carried = 0;
  return parts.map((part) => {
    const exact = (part.tokens / window) * width + carried;
    const cells = Math.max(0, Math.floor(exact));
    carried = exact - cells;
    return { name: part.name, tokens: part.tokens, cells };
  });
}

export function thresholdCell(tokens: number, window: number, width: number): number {
  if (window <= 0) return -1;
  return Math.min(width - 1, Math.max(0, Math.round((tokens / window) * width)));
}

/** Share of the window above which the context pane opens by itself. */
const CONTEXT_OPEN_RATIO = 0.7;

/** Whether a side pane has something worth the screen space right now. */
export function paneHasContent(state: TuiState, pane: PaneId): boolean {
  switch (pane) {
    case 'sessions':
      return Object.keys(state.sessions).filter((k) => k !== state.currentKey).length > 0;
    case 'lanes':
      return (state.lanes?.lanes ?? []).some((l) => l.depth > 0) || (state.lanes?.global.active ?? 0) > 1;
    case 'context': {
      const ctx = state.context[state.currentKey];
      return Boolean(ctx && ctx.window > 0 && (ctx.used >= ctx.window * CONTEXT_OPEN_RATIO || ctx.used >= ctx.thresholds.flush));
    }
    case 'subagents':
      return selectSubagents(state).some((n) => n.status === 'queued' || n.status === 'running' || n.delivery === 'pending');
    case 'schedule':
      return scheduleNeedsAttention(state.schedule);
    case 'chat':
      return true;
  }
}

/** The sub-agent tree of the session on screen (of its parent while a child's transcript is open). */
export function selectSubagents(state: TuiState): SubagentNode[] {
  return descendantsOf(state.subagents, state.ui.viewingChild?.returnTo ?? state.currentKey);
}

/** The input prompt when the next line does not go to the chat: a steer, or nowhere (a read-only child transcript). */
export function selectInputPrompt(state: TuiState): string | undefined {
  if (state.ui.steering) return `steer "${state.ui.steering.label}" ❯ `;
  if (state.ui.viewingChild) return '(read-only · Esc back) ❯ ';
  return undefined;
}

/** Side panes not drawn: hidden by the operator, or empty, not pinned and not focused. */
export function selectHiddenPanes(state: TuiState): PaneId[] {
  // A pane the operator is working in stays, even when what it showed just ended.
  const kept = (pane: PaneId): boolean => state.ui.pinned.includes(pane) || state.ui.focus === pane || paneHasContent(state, pane);
  return SIDE_PANES.filter((pane) => state.ui.hidden.includes(pane) || !kept(pane));
}

/** One line saying what the hidden panes hold, for the footer. */
export function selectPaneSummary(state: TuiState): string {
  const hidden = new Set(selectHiddenPanes(state));
  const parts: string[] = [];
  const others = Object.keys(state.sessions).filter((k) => k !== state.currentKey);
  if (hidden.has('sessions') && others.length > 0) {
    const unread = others.reduce((sum, k) => sum + (state.unread[k] ?? 0), 0);
    parts.push(`${others.length + 1} sessions${unread > 0 ? ` •${unread}` : ''}`);
  }
  if (hidden.has('lanes') && state.lanes) {
    const queued = state.lanes.lanes.reduce((sum, l) => sum + l.depth, 0);
    if (queued > 0 || state.lanes.global.active > 0)
      parts.push(`lanes ${state.lanes.global.active}/${state.lanes.global.limit}${queued > 0 ? ` +${queued} queued` : ''}`);
  }
  if (hidden.has('subagents')) {
    const running = selectSubagents(state).filter((n) => n.status === 'running').length;
    if (running > 0) parts.push(`${running} sub-agent${running > 1 ? 's' : ''}`);
  }
  if (hidden.has('schedule')) {
    const glance = scheduleGlance(state.schedule);
    if (glance) parts.push(glance);
  }
  return parts.join(' · ');
}

/** A readable name for a client id: its name and address from presence, else the id. */
export function selectClientName(state: TuiState, clientId: string): string {
  const entry = state.clients[clientId];
  if (!entry) return clientId;
  const address = entry.address.replace(/^::ffff:/, '');
  const local = address === '127.0.0.1' || address === '::1' || address === 'localhost';
  return `${entry.clientName ?? entry.clientId}${local ? '' : ` (${address})`}`;
}

import { principalKind } from '../../protocol/index.js';
import type { BackgroundKind } from '../../config/index.js';

/** Interactive work, or the background kind a budget names. */
export type SpendKind = 'interactive' | BackgroundKind;

/** Whom a model call is charged to: the caller says, the gate checks every budget that applies. */
export interface SpendCharge {
  agentId: string;
  sessionKey: string;
  /** The session's current transcript: a session budget starts again with /new. */
  sessionId?: string;
  /** The turn (run) the call belongs to. */
  runId?: string;
  kind: SpendKind;
  /** A subagent's ancestors: their sessions (`key#id`) and agents pay for its calls too. */
  parents?: { sessions: readonly string[]; agents: readonly string[] };
  /** How many turn ceilings the owner has allowed this turn (1 until they approve going past it). */
  turnAllowance?: number;
}

/** The background kind of a turn from who asked for it, or interactive. */
export function spendKindOf(principal: string | undefined, sessionKind?: string): SpendKind {
  const kind = principalKind(principal ?? 'owner');
  if (kind === 'heartbeat') return 'heartbeat';
  if (kind === 'cron') return 'cron';
  if (kind === 'webhook') return 'webhooks';
  if (kind === 'subagent' || sessionKind === 'subagent') return 'subagents';
  return 'interactive';
}

/** A session's scope id: its key and its current transcript. */
export function sessionScopeId(sessionKey: string, sessionId: string | undefined): string {
  return sessionId ? `${sessionKey}#${sessionId}` : sessionKey;
}

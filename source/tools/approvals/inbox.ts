import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomicSync, systemClock, type Clock } from '../../config/index.js';
import { ClawError, approvalRecord, type ApprovalRecord, lazySchema } from '../../protocol/index.js';
import type { ApprovalDecision, ApprovalGate, ApprovalKind, ApprovalOutcome, ApprovalRequestInput } from '../types.js';

export interface AlwaysEffect {
  /** The allowlist rule written, as text. */
  rule: string;
  /** Recent commands the rule would have matched. */
  wouldMatch: string[];
}

export interface InboxOptions {
  /** Where records persist (survives a gateway restart). */
  file: string;
  clock?: Pick<Clock, 'now'>;
  timeoutMs?: number;
  /** Writes what an `always` decision means for this kind of request. */
  onAlways?(record: ApprovalRecord, history: readonly ApprovalRecord[]): AlwaysEffect | undefined;
}

export interface ResolveResult extends Partial<AlwaysEffect> {
  approval: ApprovalRecord;
}

type Listener = (event: 'requested' | 'resolved', record: ApprovalRecord) => void;

const HISTORY_LIMIT = 200;
const fileShape = lazySchema(() => z.strictObject({ version: z.literal(1), records: z.array(approvalRecord) }));

/**
 * Durable approval requests. A request is on disk before anyone is told
 * about it; the first answer wins; an unanswered request is denied when it
 * expires. Waiters are in memory: after a restart a pending record can
 * still be answered (an `always` still writes its rule), but the call that
 * asked is gone.
 */
export class ApprovalInbox {
  readonly #options: InboxOptions;
  readonly #clock: Pick<Clock, 'now'>;
  readonly #timeoutMs: number;
  #records: ApprovalRecord[];
  readonly #waiters = new Map<string, (record: ApprovalRecord) => void>();
  readonly #timers = new Map<string, NodeJS.Timeout>();
  readonly #listeners = new Set<Listener>();
  /** Per session key: `kind\0binding` entries approved with `session`. */
  readonly #sessionApproved = new Map<string, Set<string>>();
  /** What a pending request's `session` decision would remember (in memory, like session approvals). */
  readonly #bindings = new Map<string, string>();

  constructor(options: InboxOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#timeoutMs = options.timeoutMs ?? 30 * 60_000;
    this.#records = readRecords(options.file);
    for (const record of this.#records) if (record.status === 'pending') this.#schedule(record);
    this.expireDue();
  }

  on(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  list(status: 'pending' | 'all' = 'pending'): ApprovalRecord[] {
    const records = status === 'pending' ? this.#records.filter((r) => r.status === 'pending') : [...this.#records];
    return records.sort((a, b) => Number(b.status === 'pending') - Number(a.status === 'pending') || b.createdAt - a.createdAt);
  }

  get(id: string): ApprovalRecord | undefined {
    return this.#records.find((r) => r.id === id);
  }

  /** Whether `binding` of `kind` was approved with `session` for a session key. */
  sessionApproved(sessionKey: string, kind: ApprovalKind, binding: string): boolean {
    return this.#sessionApproved.get(sessionKey)?.has(sessionEntry(kind, binding)) ?? false;
  }

  /** An ApprovalGate bound to one agent and session, for a ToolContext. */
  gate(agentId: string, sessionKey: string): ApprovalGate {
    return {
      request: (input, signal) => this.request({ ...input, agentId, sessionKey }, signal),
      approvedForSession: (kind, binding) => this.sessionApproved(sessionKey, kind, binding),
    };
  }

  async request(input: ApprovalRequestInput & { agentId: string; sessionKey: string }, signal?: AbortSignal): Promise<ApprovalOutcome> {
    const createdAt = this.#clock.now();
    const record: ApprovalRecord = {
      id: randomUUID(),
      kind: input.kind,
      agentId: input.agentId,
      sessionKey: input.sessionKey,
      command: input.command,
      cwd: input.cwd,
      envKeys: [...input.envKeys].sort(),
      reason: input.reason,
      createdAt,
      expiresAt: createdAt + this.#timeoutMs,
      status: 'pending',
    };
    if (input.plan !== undefined) record.plan = input.plan;
    this.#bindings.set(record.id, input.binding ?? input.command);
    const settled = new Promise<ApprovalRecord>((resolve) => this.#waiters.set(record.id, resolve));
    this.#records.push(record);
    this.#persist();
    this.#schedule(record);
    this.#notify('requested', record);
    const onAbort = () => this.#finish(record.id, 'expired', undefined, 'cancelled');
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    const final = await settled;
    signal?.removeEventListener('abort', onAbort);
    const outcome: ApprovalOutcome = {
      id: final.id,
      approved: final.status === 'approved',
      status: final.status === 'approved' ? 'approved' : final.status === 'expired' ? 'expired' : 'denied',
    };
    if (final.decision) outcome.decision = final.decision;
    if (final.resolvedBy) outcome.resolvedBy = final.resolvedBy;
    return outcome;
  }

  resolve(id: string, decision: ApprovalDecision, resolvedBy: string): ResolveResult {
    this.expireDue();
    const record = this.get(id);
    if (!record) throw new ClawError('not_found', `No approval request "${id}". Run \`claw approvals list\` to see pending requests.`);
    if (record.status !== 'pending') {
      throw new ClawError(
        'conflict',
        `Approval ${id} was already ${record.status}${record.resolvedBy ? ` by ${record.resolvedBy}` : ''}; the first answer wins.`,
      );
    }
    let effect: AlwaysEffect | undefined;
    if (decision === 'always') effect = this.#options.onAlways?.(record, this.#records);
    if (decision === 'session') {
      const set = this.#sessionApproved.get(record.sessionKey) ?? new Set<string>();
      set.add(sessionEntry(record.kind, this.#bindings.get(record.id) ?? record.command));
      this.#sessionApproved.set(record.sessionKey, set);
    }
    const final = this.#finish(id, decision === 'deny' ? 'denied' : 'approved', decision, resolvedBy)!;
    return effect ? { approval: final, ...effect } : { approval: final };
  }

  /** Denies every pending request whose time is up (also runs on a timer). */
  expireDue(): void {
    const now = this.#clock.now();
    for (const record of this.#records) if (record.status === 'pending' && record.expiresAt <= now) this.#finish(record.id, 'expired', undefined, 'timeout');
  }

  close(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    for (const record of this.#records) if (record.status === 'pending') this.#waiters.get(record.id)?.({ ...record, status: 'denied' });
    this.#waiters.clear();
    this.#listeners.clear();
  }

  #finish(id: string, status: ApprovalRecord['status'], decision: ApprovalDecision | undefined, resolvedBy: string): ApprovalRecord | undefined {
    const index = this.#records.findIndex((r) => r.id === id);
    const current = this.#records[index];
    if (current?.status !== 'pending') return undefined;
    const final: ApprovalRecord = { ...current, status, resolvedBy, resolvedAt: this.#clock.now() };
    if (decision) final.decision = decision;
    this.#records[index] = final;
    this.#persist();
    clearTimeout(this.#timers.get(id));
    this.#timers.delete(id);
    this.#waiters.get(id)?.(final);
    this.#waiters.delete(id);
    this.#bindings.delete(id);
    this.#notify('resolved', final);
    return final;
  }

  #schedule(record: ApprovalRecord): void {
    // Timers follow the wall clock; an injected clock drives expiry through expireDue().
    const delay = Math.max(0, Math.min(record.expiresAt - this.#clock.now(), 2 ** 31 - 1));
    const timer = setTimeout(() => this.expireDue(), delay);
    timer.unref();
    this.#timers.set(record.id, timer);
  }

  #notify(event: 'requested' | 'resolved', record: ApprovalRecord): void {
    for (const listener of this.#listeners) listener(event, record);
  }

  #persist(): void {
    const pending = this.#records.filter((r) => r.status === 'pending');
    const done = this.#records.filter((r) => r.status !== 'pending').slice(-HISTORY_LIMIT);
    this.#records = this.#records.filter((r) => r.status === 'pending' || done.includes(r));
    writeFileAtomicSync(this.#options.file, `${JSON.stringify({ version: 1, records: [...done, ...pending] }, null, 1)}\n`, 0o600);
  }
}

function sessionEntry(kind: ApprovalKind, binding: string): string {
  return `${kind}\0${binding}`;
}

function readRecords(file: string): ApprovalRecord[] {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const parsed = fileShape.safeParse(JSON.parse(raw));
  if (!parsed.success) throw new Error(`${file} is not a valid approvals file. Move it aside to start with an empty inbox.`);
  return parsed.data.records;
}

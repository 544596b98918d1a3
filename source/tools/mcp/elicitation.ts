import { systemClock, type Clock } from '../../config/index.js';
import { randomUUID } from 'node:crypto';
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

export interface ElicitationRecord {
  id: string;
  server: string;
  message: string;
  /** The flat JSON Schema of the form (string, number, integer, boolean and enum fields). */
  schema: ElicitRequestFormParams['requestedSchema'];
  createdAt: number;
  expiresAt: number;
  status: 'pending' | 'accepted' | 'declined' | 'cancelled' | 'expired';
  resolvedBy?: string;
}

export type ElicitationAnswer = Pick<ElicitResult, 'action' | 'content'>;
type Listener = (event: 'requested' | 'resolved', record: ElicitationRecord) => void;

export interface ElicitationInboxOptions {
  clock?: Pick<Clock, 'now'>;
  /** How long the operator has to answer before the request is declined. */
  timeoutMs?: number;
}

/**
 * An accepted form with each field the operator left empty (absent, an empty
 * string, an empty selection) set to the schema's `default`, as SEP-1034 says:
 * strings, numbers, booleans, enums and multi-selects alike.
 */
export function withSchemaDefaults(schema: ElicitationRecord['schema'], content: ElicitResult['content']): NonNullable<ElicitResult['content']> {
  const filled: Record<string, unknown> = { ...(content ?? {}) };
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    const fallback = (field as { default?: unknown }).default;
    if (fallback === undefined) continue;
    const given = filled[name];
    if (given === undefined || given === null || given === '' || (Array.isArray(given) && given.length === 0)) filled[name] = fallback;
  }
  return filled as NonNullable<ElicitResult['content']>;
}

/** Checks an answer against the form's schema, so a typo is reported to the operator instead of sent to the server. */
export function checkElicitationContent(schema: ElicitationRecord['schema'], content: ElicitResult['content']): string | undefined {
  let validator: z.ZodType;
  try {
    validator = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return undefined;
  }
  const checked = validator.safeParse(content ?? {});
  if (checked.success) return undefined;
  return checked.error.issues.map((issue) => `${issue.path.join('.') || 'form'}: ${issue.message}`).join('; ');
}

/**
 * Questions MCP servers ask the operator (elicitation/create, form mode).
 * Like approvals: broadcast, answered once from any client, declined when
 * nobody answers in time or the server gives up.
 */
export class ElicitationInbox {
  readonly #clock: Pick<Clock, 'now'>;
  readonly #timeoutMs: number;
  readonly #pending = new Map<string, { record: ElicitationRecord; settle: (answer: ElicitationAnswer) => void; timer: NodeJS.Timeout }>();
  readonly #listeners = new Set<Listener>();

  constructor(options: ElicitationInboxOptions = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#timeoutMs = options.timeoutMs ?? 10 * 60_000;
  }

  on(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  pending(): ElicitationRecord[] {
    return [...this.#pending.values()].map((entry) => entry.record);
  }

  /** Waits for the operator's answer; the server's cancellation or the timeout declines. */
  ask(server: string, params: ElicitRequestFormParams, signal: AbortSignal): Promise<ElicitResult> {
    const createdAt = this.#clock.now();
    const record: ElicitationRecord = {
      id: randomUUID(),
      server,
      message: params.message,
      schema: params.requestedSchema,
      createdAt,
      expiresAt: createdAt + this.#timeoutMs,
      status: 'pending',
    };
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.#finish(record.id, { action: 'decline' }, 'expired', 'timeout'), this.#timeoutMs);
      timer.unref();
      this.#pending.set(record.id, { record, settle: (answer) => resolve(answer), timer });
      signal.addEventListener('abort', () => this.#finish(record.id, { action: 'cancel' }, 'cancelled', 'server'), { once: true });
      this.#notify('requested', record);
    });
  }

  /** The operator's answer. Throws with what to fix when the form does not match its schema. */
  respond(id: string, answer: ElicitationAnswer, resolvedBy: string): ElicitationRecord {
    const entry = this.#pending.get(id);
    if (!entry) throw new Error(`No pending MCP question "${id}": it was answered, declined on timeout, or withdrawn by its server.`);
    if (answer.action === 'accept') {
      const content = withSchemaDefaults(entry.record.schema, answer.content);
      const problem = checkElicitationContent(entry.record.schema, content);
      if (problem) throw new Error(`The answer does not fit the form of MCP server "${entry.record.server}": ${problem}.`);
      return this.#finish(id, { action: 'accept', content }, 'accepted', resolvedBy)!;
    }
    return this.#finish(id, { action: answer.action }, answer.action === 'decline' ? 'declined' : 'cancelled', resolvedBy)!;
  }

  close(): void {
    for (const id of [...this.#pending.keys()]) this.#finish(id, { action: 'cancel' }, 'cancelled', 'shutdown');
    this.#listeners.clear();
  }

  #finish(id: string, answer: ElicitationAnswer, status: ElicitationRecord['status'], resolvedBy: string): ElicitationRecord | undefined {
    const entry = this.#pending.get(id);
    if (!entry) return undefined;
    this.#pending.delete(id);
    clearTimeout(entry.timer);
    const record: ElicitationRecord = { ...entry.record, status, resolvedBy };
    entry.settle(answer);
    this.#notify('resolved', record);
    return record;
  }

  #notify(event: 'requested' | 'resolved', record: ElicitationRecord): void {
    for (const listener of this.#listeners) listener(event, record);
  }
}

import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, openSync, readSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { errorCode, nodeFileOps, writeFileAtomic, type ClawConfig, type FileOps, type StatePaths, systemClock, type Clock } from '../config/index.js';
import { ClawError, withoutBackgroundRuns, type SessionPeer, type TranscriptEntry, type TranscriptHeader } from '../protocol/index.js';
import type { SessionMeta, SessionMetaPatch } from '../queue/index.js';
import { defaultAgentId, parseSessionKey, sessionKeyShapes, type ParsedSessionKey } from '../routing/index.js';
import { resetDue } from './reset-policy.js';
import type { SessionEntry } from './session-entry.js';
import { SessionStore } from './session-store.js';
import { loadTranscriptSync, salvageEntriesSync, TranscriptHeaderError, type LoadedTranscript, type TranscriptRepair } from './transcript-file.js';
import { TranscriptSession } from './transcript-session.js';

export interface SessionRegistryOptions {
  paths: StatePaths;
  config: Pick<ClawConfig, 'agents' | 'session'>;
  clock?: Pick<Clock, 'now'>;
  warn?: (message: string) => void;
  /** The disk transcripts and sessions.json are written through; tests pass one that fails. */
  fs?: FileOps;
}

export type SettingsPatch = { [K in 'model' | 'thinking' | 'queueMode' | 'approvalMode' | 'label']?: SessionEntry[K] | null };

function samePeer(a: SessionPeer | undefined, b: SessionPeer): boolean {
  return a?.kind === b.kind && a.id === b.id && a.name === b.name && a.threadId === b.threadId;
}

export interface EnsureResult {
  entry: SessionEntry;
  created: boolean;
  reset?: 'daily' | 'idle';
}

/**
 * All sessions of all agents: the per-agent sessions.json stores, the open
 * transcripts, and the lifecycle operations (create, reset, delete, patch).
 */
export class SessionRegistry {
  private readonly stores = new Map<string, SessionStore>();
  private readonly sessions = new Map<string, OpenSession>();
  /** Sessions replaced by a reset while a turn may still be writing to them, with when they were replaced. */
  private readonly retired = new Map<Promise<TranscriptSession>, { key: string; at: number }>();
  /**
   * Sessions evicted while idle. Someone may still hold one (a delivery mark
   * on its way): reopening hands that same object back rather than a second
   * writer of the same file; once nobody holds it, reopening reads the disk.
   */
  private readonly evicted = new Map<string, WeakRef<TranscriptSession>>();
  private readonly clock: Pick<Clock, 'now'>;
  private readonly warn: (message: string) => void;
  /** The agents of the config as last read; the config is live, so `claw agents add|remove` applies without a restart. */
  private agents: { list: unknown; defaultAgent: string; known: Set<string> } | undefined;
  /** Keys parse the same way every time; this is on the path of every message. */
  private readonly resolved = new Map<string, ParsedSessionKey & { agentId: string }>();
  /** New sessionId → the one it replaced, for the next transcript header. */
  private readonly previous = new Map<string, string>();
  /** Repairs made while loading transcripts, for the log and tests. */
  readonly repairs: Array<{ key: string; path: string; repair: TranscriptRepair }> = [];

  constructor(private readonly options: SessionRegistryOptions) {
    this.clock = options.clock ?? systemClock;
    this.warn = options.warn ?? (() => undefined);
  }

  get defaultAgent(): string {
    return this.agentSet().defaultAgent;
  }

  private get knownAgents(): Set<string> {
    return this.agentSet().known;
  }

  private agentSet(): { defaultAgent: string; known: Set<string> } {
    const { config } = this.options;
    if (this.agents?.list !== config.agents.list) {
      const defaultAgent = defaultAgentId(config);
      this.agents = { list: config.agents.list, defaultAgent, known: new Set([defaultAgent, ...config.agents.list.map((a) => a.id)]) };
      // A removed agent's keys must stop resolving.
      this.resolved.clear();
    }
    return this.agents;
  }

  /** Parses and checks a key; the error names the valid shapes. */
  resolve(key: string): ParsedSessionKey & { agentId: string } {
    const known = this.knownAgents;
    const cached = this.resolved.get(key);
    if (cached) return cached;
    const parsed = parseSessionKey(key);
    if (!parsed) throw new ClawError('bad_request', `"${key}" is not a session key. Valid shapes: ${sessionKeyShapes.join(', ')}.`);
    const agentId = parsed.agentId ?? this.defaultAgent;
    if (!known.has(agentId)) {
      throw new ClawError(
        'bad_request',
        `Unknown agent "${agentId}" in ${key}; configured agents: ${[...known].join(', ')}. Add it with \`claw agents add ${agentId}\` (agents.list in claw.json).`,
      );
    }
    const result = { ...parsed, agentId };
    this.resolved.set(key, result);
    return result;
  }

  get(key: string): { agentId: string; entry: SessionEntry } | undefined {
    const { agentId } = this.resolve(key);
    const entry = this.store(agentId).get(key);
    return entry ? { agentId, entry } : undefined;
  }

  /** Like get, but an unknown key is a not_found error saying how to list keys. */
  require(key: string): { agentId: string; entry: SessionEntry } {
    const found = this.get(key);
    if (!found) throw new ClawError('not_found', `No session "${key}". List sessions with \`claw sessions\` (or sessions.list).`);
    return found;
  }

  list(agentId?: string): Array<{ key: string; agentId: string; entry: SessionEntry }> {
    const agents = agentId ? [agentId] : [...this.knownAgents];
    const rows = agents.flatMap((a) =>
      this.store(a)
        .all()
        .map(([key, entry]) => ({ key, agentId: a, entry })),
    );
    return rows.sort((x, y) => y.entry.updatedAt - x.entry.updatedAt);
  }

  /** The entry for a key, created on first use; a due daily/idle reset starts a new transcript first. */
  ensure(key: string, lastChannel?: string, peer?: SessionPeer): EnsureResult {
    const { agentId, kind } = this.resolve(key);
    const store = this.store(agentId);
    const now = this.clock.now();
    const existing = store.get(key);
    if (!existing) {
      const entry: SessionEntry = {
        sessionId: randomUUID(),
        kind,
        createdAt: now,
        updatedAt: now,
        tokens: { input: 0, output: 0, context: 0 },
        costUsd: 0,
        compactionCount: 0,
        ...(lastChannel ? { lastChannel } : {}),
        ...(peer ? { peer } : {}),
      };
      store.set(key, entry);
      return { entry, created: true };
    }
    const due = resetDue(existing.updatedAt, now, this.options.config.session.reset);
    if (due) return { entry: this.reset(key), created: false, reset: due };
    if (lastChannel && existing.lastChannel !== lastChannel) store.set(key, { ...existing, lastChannel });
    if (peer && !samePeer(existing.peer, peer)) store.set(key, { ...store.get(key)!, peer });
    return { entry: store.get(key)!, created: false };
  }

  /** /new and /reset: a new sessionId; the old transcript is archived as `<id>.jsonl.reset.<ts>`. */
  reset(key: string, options: { model?: string } = {}): SessionEntry {
    const { agentId, entry } = this.require(key);
    this.archive(agentId, key, entry, 'reset');
    const next: SessionEntry = {
      ...entry,
      sessionId: randomUUID(),
      createdAt: this.clock.now(),
      updatedAt: this.clock.now(),
      tokens: { input: 0, output: 0, context: 0 },
      compactionCount: 0,
      ...(options.model ? { model: options.model } : {}),
    };
    this.previous.set(next.sessionId, entry.sessionId);
    this.store(agentId).set(key, next);
    return next;
  }

  delete(key: string): boolean {
    const found = this.get(key);
    if (!found) return false;
    this.archive(found.agentId, key, found.entry, 'deleted');
    return this.store(found.agentId).delete(key);
  }

  patch(key: string, patch: SettingsPatch): SessionEntry {
    const { agentId, entry } = this.require(key);
    const next: Record<string, unknown> = { ...entry, updatedAt: this.clock.now() };
    for (const [name, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      if (value === null) delete next[name];
      else next[name] = value;
    }
    this.store(agentId).set(key, next as SessionEntry);
    return next as SessionEntry;
  }

  /** A child session names the session that spawned it: the sessions tools' visibility and `session_status` read it. */
  setLineage(key: string, spawnedBy: string, spawnDepth: number, actingFor?: SessionEntry['actingFor']): void {
    const found = this.get(key);
    if (!found) return;
    const same = found.entry.spawnedBy === spawnedBy && found.entry.spawnDepth === spawnDepth;
    if (same && JSON.stringify(found.entry.actingFor) === JSON.stringify(actingFor)) return;
    this.store(found.agentId).set(key, { ...found.entry, spawnedBy, spawnDepth, ...(actingFor ? { actingFor } : {}) });
  }

  /** The open transcript of a key (creating the entry and file when new). */
  open(key: string): Promise<TranscriptSession> {
    const cached = this.sessions.get(key);
    const { entry } = this.get(key) ?? { entry: this.ensure(key).entry };
    if (cached) {
      cached.lastUsed = this.clock.now();
      return cached.promise.then((session) => (session.sessionId === entry.sessionId ? session : this.reopen(key)));
    }
    return this.reopen(key);
  }

  async history(key: string, beforeId: string | undefined, limit: number): Promise<{ sessionId: string; entries: TranscriptEntry[]; hasMore: boolean }> {
    this.require(key);
    const session = await this.open(key);
    // History is the chat view: heartbeat and cron runs show only what they announced.
    const all = withoutBackgroundRuns(session.entries());
    let end = all.length;
    if (beforeId !== undefined) {
      end = all.findIndex((e) => e.id === beforeId);
      if (end < 0) throw new ClawError('bad_request', `No entry "${beforeId}" in the current transcript of ${key}; page with an id from a previous answer.`);
    }
    const start = Math.max(0, end - limit);
    return { sessionId: session.sessionId, entries: all.slice(start, end), hasMore: start > 0 };
  }

  /**
   * Inbound messages the transcripts received since `since` (active sessions
   * only), keyed as the journal dedupes them: what rebuilds its dedupe memory
   * when the journal was deleted or garbled.
   */
  async receivedSince(since: number): Promise<Array<{ dedupeKey: string; at: number; sessionKey: string }>> {
    const received: Array<{ dedupeKey: string; at: number; sessionKey: string }> = [];
    for (const { key, entry } of this.list()) {
      if (entry.updatedAt < since) continue;
      const session = await this.open(key);
      for (const e of session.entries()) {
        if (e.type !== 'message' || e.role !== 'user' || e.timestamp < since || !e.meta?.messageId || !e.meta.channel) continue;
        received.push({ dedupeKey: `${e.meta.channel}\u0000${e.meta.messageId}`, at: e.timestamp, sessionKey: key });
      }
    }
    return received;
  }

  meta(key: string): SessionMeta {
    const { agentId, entry } = this.require(key);
    return { key, agentId, ...pickMeta(entry) };
  }

  update(key: string, patch: SessionMetaPatch & { updatedAt: number }): void {
    const found = this.get(key);
    if (found) this.store(found.agentId).set(key, { ...found.entry, ...patch });
    const open = this.sessions.get(key);
    if (open) open.lastUsed = this.clock.now();
  }

  /** How many transcripts are open in memory (for health, tests and figures). */
  openCount(): number {
    return this.sessions.size;
  }

  /**
   * Closes the sessions nobody opened or wrote for `idleMs` and that `busy`
   * (the lanes: a turn running, messages waiting) does not claim, and drops
   * them from memory; the next open reads them from disk. Sessions a reset
   * replaced are closed the same way. Resolves with how many were evicted.
   */
  async evictIdle(idleMs: number, busy: (key: string) => boolean): Promise<number> {
    const cutoff = this.clock.now() - idleMs;
    const closing: Array<Promise<void>> = [];
    for (const [key, open] of this.sessions) {
      if (!open.loaded || open.lastUsed > cutoff || busy(key)) continue;
      this.sessions.delete(key);
      this.evicted.set(key, new WeakRef(open.loaded));
      closing.push(open.loaded.suspend().catch((error: unknown) => this.warn(`closing idle session ${key}: ${String(error)}`)));
    }
    const evicted = closing.length;
    for (const [promise, { key, at }] of this.retired) {
      if (at > cutoff || busy(key)) continue;
      this.retired.delete(promise);
      closing.push(
        promise.then(
          (session) => session.close().catch((error: unknown) => this.warn(`closing replaced session of ${key}: ${String(error)}`)),
          () => undefined,
        ),
      );
    }
    for (const [key, ref] of this.evicted) if (!ref.deref()) this.evicted.delete(key);
    await Promise.all(closing);
    return evicted;
  }

  async flush(): Promise<void> {
    await Promise.all([...this.stores.values()].map((s) => s.flush()));
    await Promise.all(this.allSessions().map(async (p) => (await p.catch(() => undefined))?.flush()));
  }

  /** Closes every file even when the last flush fails (a full disk); the failure is then rethrown. */
  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      for (const store of this.stores.values()) store.close();
      await Promise.all(this.allSessions().map(async (p) => (await p.catch(() => undefined))?.close().catch(() => undefined)));
      this.sessions.clear();
      this.retired.clear();
      this.evicted.clear();
    }
  }

  /** Open, replaced and evicted-but-held sessions: everything that may have lines to flush. */
  private allSessions(): Array<Promise<TranscriptSession>> {
    const evicted = [...this.evicted.values()].flatMap((ref) => {
      const session = ref.deref();
      return session ? [Promise.resolve(session)] : [];
    });
    return [...[...this.sessions.values()].map((open) => open.promise), ...this.retired.keys(), ...evicted];
  }

  transcriptPath(agentId: string, sessionId: string): string {
    return join(this.options.paths.sessionsDir(agentId), `${sessionId}.jsonl`);
  }

  private reopen(key: string): Promise<TranscriptSession> {
    const old = this.sessions.get(key);
    if (old) this.retired.set(old.promise, { key, at: this.clock.now() });
    const promise = this.revive(key) ?? this.load(key);
    const open: OpenSession = { promise, loaded: undefined, lastUsed: this.clock.now() };
    this.sessions.set(key, open);
    promise.then(
      (session) => {
        open.loaded = session;
      },
      () => {
        if (this.sessions.get(key) === open) this.sessions.delete(key);
      },
    );
    return promise;
  }

  /** An evicted session someone still holds, if it is still the key's current transcript. */
  private revive(key: string): Promise<TranscriptSession> | undefined {
    const session = this.evicted.get(key)?.deref();
    this.evicted.delete(key);
    if (!session) return undefined;
    if (session.sessionId === this.get(key)?.entry.sessionId) return Promise.resolve(session);
    void session.close().catch(() => undefined);
    return undefined;
  }

  private async load(key: string): Promise<TranscriptSession> {
    const { agentId, entry } = this.require(key);
    const path = this.transcriptPath(agentId, entry.sessionId);
    let entries: TranscriptEntry[] = [];
    let loaded: LoadedTranscript | undefined;
    let salvaged: { entries: TranscriptEntry[]; lost: number } | undefined;
    if (existsSync(path) && !headerless(path)) {
      try {
        loaded = loadTranscriptSync(path, this.clock.now());
      } catch (error) {
        if (!(error instanceof TranscriptHeaderError)) throw error;
        // Refusing the file forever would make the session unusable: its valid entries go into a fresh transcript, the file stays for the operator.
        salvaged = salvageEntriesSync(path, this.clock.now());
        const aside = `${path}.corrupt.${this.clock.now()}`;
        renameSync(path, aside);
        this.warn(
          `${path} had no valid transcript header (garbage or a binary file); moved it to ${aside} and started a fresh transcript for ${key} with the ${salvaged.entries.length} valid entries it held (${salvaged.lost} line(s) lost, the header among them). Inspect or delete the moved file.`,
        );
      }
    }
    if (loaded) {
      entries = loaded.entries;
      const { repair } = loaded;
      if (repair.tornTail || repair.skippedLines > 0 || repair.danglingToolCalls.length > 0) {
        this.repairs.push({ key, path, repair });
        this.warn(`repaired ${path}: ${JSON.stringify(repair)}`);
      }
    } else {
      const previousSessionId = this.previous.get(entry.sessionId);
      const header: TranscriptHeader = {
        type: 'session',
        version: 1,
        id: entry.sessionId,
        key,
        agentId,
        createdAt: entry.createdAt,
        ...(previousSessionId ? { previousSessionId } : {}),
      };
      entries = salvaged?.entries ?? [];
      try {
        await writeFileAtomic(path, [header, ...entries].map((line) => `${JSON.stringify(line)}\n`).join(''), 0o600, this.options.fs);
      } catch (error) {
        throw new Error(
          `The transcript ${path} could not be created (${errorCode(error)}); free disk space or fix permissions in the state dir, then send the message again.`,
          { cause: error },
        );
      }
    }
    return new TranscriptSession(key, agentId, entry.sessionId, path, entries, this, this.clock, this.options.fs ?? nodeFileOps);
  }

  private archive(agentId: string, key: string, entry: SessionEntry, why: 'reset' | 'deleted'): void {
    const path = this.transcriptPath(agentId, entry.sessionId);
    if (existsSync(path)) renameSync(path, `${path}.${why}.${this.clock.now()}`);
    const old = this.sessions.get(key);
    if (old) {
      this.retired.set(old.promise, { key, at: this.clock.now() });
      this.sessions.delete(key);
    }
    const evicted = this.evicted.get(key)?.deref();
    this.evicted.delete(key);
    if (evicted) void evicted.close().catch(() => undefined);
  }

  private store(agentId: string): SessionStore {
    let store = this.stores.get(agentId);
    if (!store) {
      store = new SessionStore(this.options.paths.sessionsDir(agentId), this.warn, this.options.fs, this.clock);
      this.stores.set(agentId, store);
    }
    return store;
  }
}

interface OpenSession {
  promise: Promise<TranscriptSession>;
  /** Set once the load resolved: only a loaded session can be evicted. */
  loaded: TranscriptSession | undefined;
  /** When it was last opened or written. */
  lastUsed: number;
}

/** A transcript file that never got its whole header line (a crash while creating it) holds nothing to keep. */
function headerless(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    return !buffer.subarray(0, length).includes(0x0a) && length < buffer.length;
  } finally {
    closeSync(fd);
  }
}

function pickMeta(entry: SessionEntry): Omit<SessionMeta, 'key' | 'agentId'> {
  const { createdAt: _created, updatedAt: _updated, ...rest } = entry;
  return rest;
}

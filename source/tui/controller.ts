import { randomUUID } from 'node:crypto';
import type { GatewayClient } from '../client/index.js';
import { ClawError, commandDataOf, type ApprovalRecord, type CommandInfo, type MethodName, type ParamsOf, type ResultOf } from '../protocol/index.js';
import { appendItems, updateChat } from './store/chat-reducer.js';
import { placeAnswer } from './store/command-answers.js';
import { HistoryLoader } from './history-loader.js';
import type { LineCount } from './store/history-window.js';
import { userItemId } from './store/live-reducers.js';
import { reduceHello, reducePendingList } from './store/reducers.js';
import { selectChat } from './store/selectors.js';
import type { ChatItem, SearchUi } from './store/state.js';
import { setUi } from './ui-actions.js';
import type { TuiStore } from './store/store.js';
import { watchMcp } from './mcp-sync.js';

const SEARCH_LIMIT = 50;
/** A search jump pages back at most this far (10k entries). */
const MAX_JUMP_PAGES = 50;

const PING_EVERY_MS = 10_000;

/**
 * Everything the TUI does goes through here: it feeds gateway events into the
 * store and turns user intents into RPCs. It has no view code.
 */
export class TuiController {
  private readonly unsubscribe: Array<() => void> = [];
  private pingTimer: NodeJS.Timeout | undefined;
  private noticeSeq = 0;
  private gatewayCommands: CommandInfo[] = [];
  #commandsAsked = 0;
  #client: GatewayClient | undefined;
  #attached = false;
  /** Messages sent before the first connection was up, in order; sent once it is. */
  readonly #queued: Array<{ key: string; text: string; idempotencyKey: string }> = [];
  private readonly history: HistoryLoader;

  /**
   * `client` may still be on its way (a promise of a connected client), so
   * the first frame can paint and take typing before the gateway answers.
   */
  constructor(
    client: GatewayClient | Promise<GatewayClient>,
    readonly store: TuiStore,
  ) {
    this.history = new HistoryLoader(store, {
      call: (method, params) => this.call(method, params),
      serves: (method) => this.serves(method),
      error: (error, hint, key) => this.error(error, hint, key),
    });
    if (client instanceof Promise) {
      client.then(
        (arrived) => this.arrive(arrived),
        // Whoever started the connection reports its failure (runTui exits with it).
        () => undefined,
      );
    } else this.#client = client;
  }

  get client(): GatewayClient | undefined {
    return this.#client;
  }

  /** Subscribes to the client; call after construction, before or after connect. */
  attach(): void {
    this.#attached = true;
    if (this.#client) this.subscribe(this.#client);
    else this.store.update((s) => ({ ...s, conn: { ...s.conn, state: 'connecting' } }));
    this.pingTimer = setInterval(() => {
      void this.ping();
    }, PING_EVERY_MS);
    void this.ping();
  }

  detach(): void {
    this.#attached = false;
    clearInterval(this.pingTimer);
    for (const off of this.unsubscribe.splice(0)) off();
  }

  private arrive(client: GatewayClient): void {
    this.#client = client;
    if (this.#attached) this.subscribe(client);
  }

  private subscribe(client: GatewayClient): void {
    this.unsubscribe.push(
      client.on('*', (payload, _seq, event) => this.store.applyEvent(event, payload)),
      client.on('resync', () => {
        void this.resync();
      }),
      // A new pairing code is a new completion value of /pairing.
      client.on('pairing.requested', () => {
        void this.loadCommands();
      }),
      client.onState((state, detail) => this.store.update((s) => ({ ...s, conn: { ...s.conn, state, ...(detail.reason ? { reason: detail.reason } : {}) } }))),
      client.onHello((hello) => {
        this.store.update((s) => reduceHello(s, hello));
        // A connection that comes up is shown at once, not at the next frame tick.
        this.store.flush();
        void this.loadCommands();
        if (hello.resume !== 'replayed') void this.loadInitial();
        this.sendQueued();
      }),
    );
    this.unsubscribe.push(watchMcp(this, client));
    if (client.hello) {
      const hello = client.hello;
      this.store.update((s) => reduceHello(s, hello));
      this.store.update((s) => ({ ...s, conn: { ...s.conn, state: client.state } }));
      void this.loadCommands();
      void this.loadInitial();
      this.sendQueued();
    }
  }

  private sendQueued(): void {
    for (const message of this.#queued.splice(0)) void this.deliver(message.key, message.text, message.idempotencyKey);
  }

  /** The gateway's slash commands, as `commands.list` last returned them (for completion, pickers, /help). */
  commands(): readonly CommandInfo[] {
    return this.gatewayCommands;
  }

  async loadCommands(): Promise<void> {
    if (!this.serves('commands.list')) return;
    this.#commandsAsked += 1;
    const asked = this.#commandsAsked;
    try {
      const { commands } = await this.call('commands.list');
      // The gateway answers requests concurrently: an older answer (say, from before an MCP server's prompts arrived) must not win.
      if (asked === this.#commandsAsked) this.gatewayCommands = commands;
    } catch (error) {
      this.error(error, 'Slash-command completion is unavailable until the gateway answers commands.list.');
    }
  }

  serves(method: MethodName): boolean {
    return this.store.getState().conn.methods.includes(method);
  }

  /** An RPC that explains itself when the gateway does not serve the method yet. */
  async call<M extends MethodName>(method: M, params?: ParamsOf<M>): Promise<ResultOf<M>> {
    const client = this.#client;
    if (!client) throw new ClawError('unavailable', 'Still connecting to the gateway; try again in a moment.');
    if (client.hello && !this.serves(method)) {
      throw new ClawError(
        'unavailable',
        `This gateway (v${client.hello.server.version}) does not serve ${method}; update claw and run \`claw gateway restart\`.`,
      );
    }
    return client.request(method, params);
  }

  notice(text: string, key = this.store.getState().currentKey): void {
    this.push(key, { kind: 'notice', id: `notice:${++this.noticeSeq}`, text });
  }

  /** Echoes a slash command into the chat before its output; returns the echo's id for `answer`. */
  echoCommand(text: string, key = this.store.getState().currentKey): string {
    const id = `command:${++this.noticeSeq}`;
    this.push(key, { kind: 'command', id, text });
    return id;
  }

  /** A command's reply or failure, drawn under its echo (see placeAnswer). */
  answer(echoId: string | undefined, answer: { text: string } | { error: unknown; hint?: string | undefined }, key = this.store.getState().currentKey): void {
    const id = `answer:${++this.noticeSeq}`;
    const item: ChatItem =
      'text' in answer
        ? { kind: 'notice', id, text: answer.text }
        : {
            kind: 'error',
            id,
            message: answer.error instanceof Error ? answer.error.message : String(answer.error),
            ...(answer.hint ? { hint: answer.hint } : {}),
          };
    if (echoId === undefined) return this.push(key, item);
    this.store.update((s) => updateChat(s, key, (log) => placeAnswer(log, echoId, item)));
  }

  error(error: unknown, hint?: string, key = this.store.getState().currentKey): void {
    const message = error instanceof Error ? error.message : String(error);
    this.push(key, { kind: 'error', id: `error:${++this.noticeSeq}`, message, ...(hint ? { hint } : {}) });
  }

  private push(key: string, item: ChatItem): void {
    this.store.update((s) => updateChat(s, key, (log) => appendItems(log, [item])));
  }

  async send(text: string): Promise<void> {
    const key = this.store.getState().currentKey;
    const idempotencyKey = randomUUID();
    // The gateway's message.accepted event carries the same id, so the echo is not doubled.
    this.push(key, { kind: 'user', id: userItemId(idempotencyKey), text });
    const client = this.#client;
    if (!client || (!client.hello && (client.state === 'idle' || client.state === 'connecting'))) {
      this.#queued.push({ key, text, idempotencyKey });
      return;
    }
    await this.deliver(key, text, idempotencyKey);
  }

  private async deliver(key: string, text: string, idempotencyKey: string): Promise<void> {
    try {
      await this.call('chat.send', { sessionKey: key, text, idempotencyKey });
    } catch (error) {
      this.error(error, 'Check `claw status`; your message was not sent, press Up to get it back.', key);
    }
  }

  async abort(): Promise<void> {
    const key = this.store.getState().currentKey;
    const runId = selectChat(this.store.getState(), key).runId;
    try {
      const result = await this.call('chat.abort', { sessionKey: key, ...(runId ? { runId } : {}) });
      if (!result.aborted) this.notice('Nothing is running in this session.');
    } catch (error) {
      this.error(error);
    }
  }

  async resolveApproval(approval: ApprovalRecord, decision: 'once' | 'session' | 'always' | 'deny'): Promise<void> {
    try {
      const result = await this.call('approvals.resolve', { id: approval.id, decision, idempotencyKey: `${approval.id}:${decision}` });
      if (result.rule) this.notice(`Allowlist rule written: ${result.rule}`, approval.sessionKey);
    } catch (error) {
      this.error(error, 'The request may have expired; /approvals lists what is still pending.', approval.sessionKey);
    }
  }

  /** Answers an automatic compaction's preview: compact now, or postpone it for this turn. */
  async decideCompaction(id: string, decision: 'now' | 'postpone'): Promise<void> {
    try {
      await this.call('compaction.decide', { id, decision, idempotencyKey: `${id}:${decision}` });
    } catch (error) {
      this.error(error, 'The compaction may have started already.');
    }
  }

  /** Searches every session's transcript on the gateway and shows the hits. */
  async search(query: string): Promise<void> {
    const patch = (change: Partial<SearchUi>): void =>
      this.store.update((s) => setUi(s, { search: { ...(s.ui.search ?? { query, editing: false, hits: [], index: 0, status: 'idle' }), ...change } }));
    patch({ query, editing: false, status: 'loading', hits: [], index: 0 });
    try {
      const { hits, tookMs } = await this.call('sessions.search', { query, agentId: this.store.getState().agentId, limit: SEARCH_LIMIT });
      patch({ status: 'done', hits, tookMs });
    } catch (error) {
      patch({ status: 'error', error: error instanceof Error ? error.message : String(error) });
    }
  }

  /** Opens the hit's session and pages its history back until the message is loaded, then brings it into view. */
  async jumpToHit(index: number): Promise<void> {
    const search = this.store.getState().ui.search;
    const hit = search?.hits[index];
    if (!search || !hit) return;
    this.store.update((s) => setUi(s, { anchor: { key: hit.sessionKey, entryId: hit.entryId, query: search.query, pending: true } }));
    if (this.store.getState().currentKey !== hit.sessionKey) await this.switchSession(hit.sessionKey);
    const loaded = (): boolean => selectChat(this.store.getState(), hit.sessionKey).items.some((i) => i.entryId === hit.entryId);
    // Messages that arrived live (sent or streamed here) carry no transcript id until the newest page is fetched again.
    let refreshed = false;
    for (let pages = 0; !loaded() && pages < MAX_JUMP_PAGES; pages++) {
      const log = selectChat(this.store.getState(), hit.sessionKey);
      if (log.items.length > 0 && !log.hasMore) {
        if (refreshed) break;
        refreshed = true;
        await this.loadHistory(hit.sessionKey, false);
        continue;
      }
      await this.loadHistory(hit.sessionKey, log.items.length > 0);
    }
    if (!loaded()) {
      this.store.update((s) => setUi(s, { anchor: undefined }));
      this.notice("That message is no longer in the session's transcript (it was compacted away or the session was reset).", hit.sessionKey);
    }
  }

  async switchSession(key: string): Promise<void> {
    // The header names the agent of the session on screen.
    const agentId = this.store.getState().sessions[key]?.agentId ?? /^agent:([^:]+):/.exec(key)?.[1];
    this.store.update((s) => ({ ...s, currentKey: key, ...(agentId ? { agentId } : {}), unread: { ...s.unread, [key]: 0 }, ui: { ...s.ui, scroll: 0 } }));
    if (selectChat(this.store.getState(), key).items.length === 0) await this.loadHistory(key);
    await this.loadContext(key);
  }

  /**
   * The context report of a session the snapshot had none for (no turn since
   * the gateway started), so the pane and footer show real numbers at once.
   */
  private async loadContext(key = this.store.getState().currentKey): Promise<void> {
    if (!this.serves('commands.run') || this.store.getState().context[key]) return;
    try {
      const { data } = await this.call('commands.run', { sessionKey: key, text: '/context json' });
      const event = (data as { event?: unknown } | undefined)?.event;
      if (event !== undefined) this.store.applyEvent('context', event);
    } catch {
      // No model configured: there is no window to report, and the "no model" notice says why.
    }
  }

  /**
   * The chat pane's view came within a screen of an end of what is in memory:
   * fetch the page beyond it. `lines` measures items as the pane draws them.
   */
  loadEdge(key: string, edge: 'older' | 'newer' | 'latest', lines: LineCount): void {
    this.history.lineCount = lines;
    void (edge === 'older' ? this.loadHistory(key, true) : edge === 'newer' ? this.history.loadNewer(key) : this.loadHistory(key));
  }

  /** Loads the newest page, or the page before the oldest item in memory. */
  loadHistory(key = this.store.getState().currentKey, older = false): Promise<void> {
    return this.history.load(key, older);
  }

  async loadInitial(): Promise<void> {
    const tasks: Promise<unknown>[] = [];
    if (this.serves('sessions.list')) {
      tasks.push(
        this.call('sessions.list', {})
          .then((r) => this.store.update((s) => ({ ...s, sessions: Object.fromEntries(r.sessions.map((x) => [x.key, x])) })))
          .catch(() => undefined),
      );
    }
    if (this.serves('approvals.list')) {
      tasks.push(
        this.call('approvals.list', { status: 'pending' })
          .then((r) => this.store.update((s) => reducePendingList(s, r.approvals)))
          .catch(() => undefined),
      );
    }
    if (this.serves('commands.run') || this.serves('setup.status')) tasks.push(this.checkModel());
    if (this.serves('commands.run')) tasks.push(this.loadContext(), this.checkThinking());
    tasks.push(this.loadHistory());
    await Promise.all(tasks);
  }

  /** Asks the gateway which thinking level this session's turns use, so the footer names it rather than "default". */
  private async checkThinking(): Promise<void> {
    const key = this.store.getState().currentKey;
    try {
      const { data } = await this.call('commands.run', { sessionKey: key, text: '/think' });
      const effective = commandDataOf('think', data)?.effective;
      if (effective) this.store.update((s) => ({ ...s, defaultThinking: { ...s.defaultThinking, [key]: effective } }));
    } catch {
      // An older gateway: the footer keeps saying "default".
    }
  }

  /** Asks the gateway which model this session would use, so "no model" shows before the first message. */
  private async checkModel(): Promise<void> {
    if (this.serves('setup.status')) {
      try {
        const status = await this.call('setup.status', {});
        this.store.update((s) => ({ ...s, modelMissing: !status.configured, setupStatus: status }));
        return;
      } catch {
        // Falls back to asking /model below.
      }
    }
    try {
      const key = this.store.getState().currentKey;
      const { data } = await this.call('commands.run', { sessionKey: key, text: '/model' });
      const report = commandDataOf('model', data);
      if (report) {
        const model = report.model ?? undefined;
        this.store.update((s) => ({ ...s, modelMissing: !model, defaultModel: { ...s.defaultModel, [key]: model } }));
      }
    } catch {
      // A gateway without the model command leaves the notice to the first turn's error.
    }
  }

  private async resync(): Promise<void> {
    try {
      const { snapshot, seq } = await this.call('events.snapshot');
      const hello = this.#client?.hello;
      if (hello) this.store.update((s) => reduceHello(s, { ...hello, snapshot, seq }));
    } catch {
      // A failed resync leaves the last known state on screen; the next reconnect retries.
    }
  }

  private async ping(): Promise<void> {
    const client = this.#client;
    if (client?.state !== 'open' || !this.serves('health')) return;
    const started = performance.now();
    try {
      await client.request('health', {}, { timeoutMs: 5000 });
      const latencyMs = Math.round(performance.now() - started);
      this.store.update((s) => ({ ...s, conn: { ...s.conn, latencyMs } }));
    } catch {
      // Latency stays at its last value; the connection state shows real trouble.
    }
  }
}

import { randomUUID } from 'node:crypto';
import { mkdirSync, watch } from 'node:fs';
import { join } from 'node:path';
import type { AcceptResult, CorePorts, DeliveryResult, OutboundReply, Service, ServiceHealth } from '../core/index.js';
import type { ChannelStatusInfo, ReplyRoute } from '../protocol/index.js';
import { replyRouteOf, type InboundMessage } from '../queue/index.js';
import { parseSessionKey, routeInbound } from '../routing/index.js';
import type { AnyChannelAdapter, ChannelAccountBase, ChannelContext } from './adapter.js';
import { ApprovalRelay, type OwnerChat } from './approval-relay.js';
import { tokenVersion, type TokenSources } from './credentials.js';
import type { Channel, ChannelStatus } from './channel.js';
import { createMessageTool } from './message-tool.js';
import { resolveMessageTarget, type TargetView } from './message-targets.js';
import { PairingStore, type ApprovedSender, type PendingPairing } from './pairing-store.js';
import { CHANNEL_ADAPTERS } from './registry.js';
import { StreamedReply } from './stream-reply.js';
import { notePreview, previewLeftBy } from './stream-previews.js';

export type ChannelHostPorts = Pick<
  CorePorts,
  'inbound' | 'outbound' | 'turns' | 'tools' | 'commands' | 'config' | 'clock' | 'log' | 'paths' | 'env' | 'clients' | 'sessions' | 'workspaces'
>;

export interface ChannelHostOptions {
  /** The adapters to run; default every one in `registry.ts`. */
  adapters?: readonly AnyChannelAdapter[];
  /** Tests shorten the adapters' waits (reconnectFirstDelayMs, lockRetryMs, watchdogMs, …). */
  timings?: Readonly<Record<string, number>>;
}

/** One configured account: running, or why it is not. */
interface Account {
  adapter: AnyChannelAdapter;
  accountId: string;
  /** The raw config it was started with, and its secret's version: a change restarts it. */
  fingerprint: string;
  channel?: Channel;
  config?: ChannelAccountBase;
  broken?: string;
}

const keyOf = (channel: string, accountId: string): string => `${channel}:${accountId}`;

/**
 * Runs every configured account of every registered channel adapter: inbound
 * halves feed `inbound`, one outbound half per channel is registered with
 * `outbound`, replies stream as edits, exec approvals reach the owner's chat,
 * pairing codes are issued and approved here, and the `message` tool sends
 * through them. Accounts follow claw.json live: added, removed, re-tokened or
 * switched off without a restart. No platform is named here (`registry.ts`).
 */
export class ChannelHost implements Service {
  readonly name = 'channels';
  readonly #adapters: readonly AnyChannelAdapter[];
  readonly #timings: Readonly<Record<string, number>>;
  #ports: ChannelHostPorts | undefined;
  #pairing: PairingStore | undefined;
  #relay: ApprovalRelay | undefined;
  readonly #accounts = new Map<string, Account>();
  /** Accepted run → where its reply goes (streaming previews). */
  readonly #runs = new Map<string, ReplyRoute>();
  /** Session → the channel route it was last reached on (approvals, the `message` tool's default target). */
  readonly #sessionRoutes = new Map<string, ReplyRoute>();
  readonly #streams = new Map<string, StreamedReply>();
  /** Texts the `message` tool already sent to a turn's own chat, per session. */
  readonly #toolSent = new Map<string, Set<string>>();
  readonly #instanceId = randomUUID();
  #cleanup: Array<() => void> = [];
  /** Account starts and stops, one after another. */
  #reconciling: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(options: ChannelHostOptions = {}) {
    this.#adapters = options.adapters ?? CHANNEL_ADAPTERS;
    this.#timings = options.timings ?? {};
  }

  get #p(): ChannelHostPorts {
    if (!this.#ports) throw new Error('the channels service has not started');
    return this.#ports;
  }

  get pairing(): PairingStore {
    if (!this.#pairing) throw new Error('the channels service has not started');
    return this.#pairing;
  }

  async start(ports: ChannelHostPorts): Promise<void> {
    this.#ports = ports;
    this.#stopped = false;
    this.#pairing = new PairingStore(join(ports.paths.root, 'channels', 'pairing.json'), ports.clock);
    for (const adapter of this.#adapters) {
      this.#cleanup.push(
        ports.outbound.register(adapter.id, {
          deliver: (route, reply) => this.#deliver(adapter, route, reply),
          durable: true,
          ownerChats: () => this.#running(adapter.id).flatMap((accountId) => this.#ownerId(adapter.id, accountId) ?? []),
        }),
      );
    }
    this.#cleanup.push(ports.turns.on('turn.delta', ({ runId, sessionKey, delta }) => this.#onDelta(runId, sessionKey, delta)));
    this.#relay = new ApprovalRelay({ inbox: ports.tools.approvals, ownerFor: (key) => this.#ownerFor(key), warn: (m) => ports.log.warn(m) });
    const tool = createMessageTool({
      resolve: (input) => resolveMessageTarget(input, this.#targets(input.sessionKey)),
      sentToOwnChat: (key, text) => this.#rememberToolSend(key, text),
    });
    ports.tools.register(tool as never);
    this.#cleanup.push(() => ports.tools.unregister(tool.name));
    this.#cleanup.push(
      ports.config.onChange((changed) => {
        if (changed.some((key) => key === 'channels' || key.startsWith('channels.'))) return this.reconcile();
      }),
    );
    this.#watchCredentials(ports);
    await this.reconcile();
  }

  /** A token stored again by `claw channels login` (or a changed tokenFile in credentials/) restarts its account without a gateway restart. */
  #watchCredentials(ports: ChannelHostPorts): void {
    try {
      mkdirSync(ports.paths.credentials, { recursive: true, mode: 0o700 });
      const watcher = watch(ports.paths.credentials, () => void this.reconcile());
      watcher.on('error', (error) => ports.log.warn(`channels: cannot watch ${ports.paths.credentials} for new tokens: ${String(error)}`));
      this.#cleanup.push(() => watcher.close());
    } catch (error) {
      ports.log.warn(`channels: cannot watch ${ports.paths.credentials} for new tokens: ${String(error)}`);
    }
  }

  #fingerprint(adapter: AnyChannelAdapter, accountId: string, raw: unknown): string {
    const config = JSON.stringify(raw);
    if (!adapter.credential || typeof raw !== 'object' || raw === null) return config;
    return `${config}|${tokenVersion(raw as TokenSources, adapter.id, accountId, this.#p.paths)}`;
  }

  /**
   * Brings the running accounts in line with claw.json: starts new and
   * re-enabled ones, stops removed and disabled ones, restarts one whose
   * config changed. Runs one at a time; resolves when this one is done.
   */
  reconcile(): Promise<void> {
    this.#reconciling = this.#reconciling.then(() => this.#reconcileNow()).catch((error: unknown) => this.#ports?.log.warn(`channels: ${String(error)}`));
    return this.#reconciling;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#reconciling;
    for (const stream of this.#streams.values()) stream.cancel();
    this.#streams.clear();
    await Promise.all([...this.#accounts.values()].map((account) => account.channel?.stop()));
    this.#accounts.clear();
    this.#relay?.close();
    for (const cleanup of this.#cleanup.reverse()) cleanup();
    this.#cleanup = [];
  }

  health(): ServiceHealth {
    const all = this.status();
    if (all.length === 0) return { ok: true, detail: 'no channel configured' };
    const failing = all.filter((s) => s.state === 'error');
    return {
      ok: failing.length === 0,
      detail: all.map((s) => `${s.channel}:${s.accountId} ${s.state}${s.reason ? ` (${s.reason})` : ''}`).join('; '),
    };
  }

  status(): ChannelStatusInfo[] {
    return [...this.#accounts.values()].map((account) => {
      const owner = this.#ownerId(account.adapter.id, account.accountId);
      const status: ChannelStatusInfo = account.channel
        ? clean(account.channel.status())
        : { channel: account.adapter.id, accountId: account.accountId, state: 'error' as const, reason: account.broken ?? 'not started', reconnectAttempts: 0 };
      return owner ? { ...status, owner } : status;
    });
  }

  /** The codes waiting for an answer; none before the service has started (`/pairing` completion asks early). */
  pendingPairings(): PendingPairing[] {
    return this.#pairing?.pending() ?? [];
  }

  listPairings(): { pending: PendingPairing[]; approved: ApprovedSender[] } {
    return { pending: this.pairing.pending(), approved: this.pairing.approved() };
  }

  /** Approves a code and tells the sender; `told` is false when that message could not be sent. */
  async approvePairing(code: string, options: { owner?: boolean } = {}): Promise<{ approved: ApprovedSender; told: boolean; replaced?: string }> {
    const before = this.pairing.pending().find((p) => p.code === code.trim().toUpperCase());
    const previous = before ? this.#ownerId(before.channel, before.accountId) : undefined;
    const { approved } = this.pairing.approve(code, options);
    const channel = this.#channel(approved.channel, approved.accountId);
    const text = approved.owner
      ? 'You are paired with this assistant, as its owner: you can talk to it here now, and approvals will come to you.'
      : 'You are paired with this assistant: you can talk to it here now.';
    const result = channel
      ? await channel.send({ channel: approved.channel, accountId: approved.accountId, peer: { kind: 'direct', id: approved.chatId } }, { text })
      : undefined;
    const replaced = approved.owner && previous && previous !== approved.senderId ? previous : undefined;
    return { approved, told: result?.delivered === true, ...(replaced ? { replaced } : {}) };
  }

  denyPairing(code: string): PendingPairing {
    return this.pairing.deny(code);
  }

  async #reconcileNow(): Promise<void> {
    if (this.#stopped) return;
    const ports = this.#p;
    const wanted = new Map<string, { adapter: AnyChannelAdapter; accountId: string; raw: unknown }>();
    for (const adapter of this.#adapters) {
      for (const [accountId, raw] of Object.entries(adapter.accounts(ports.config.current)))
        wanted.set(keyOf(adapter.id, accountId), { adapter, accountId, raw });
    }
    for (const [key, account] of [...this.#accounts]) {
      const next = wanted.get(key);
      if (next && this.#fingerprint(next.adapter, next.accountId, next.raw) === account.fingerprint) continue;
      this.#accounts.delete(key);
      await account.channel?.stop();
      if (!next) ports.clients.emit('channels.status', { channels: this.status() });
    }
    for (const [key, { adapter, accountId, raw }] of wanted) {
      if (this.#accounts.has(key) || this.#stopped) continue;
      await this.#startAccount(key, adapter, accountId, raw);
    }
  }

  async #startAccount(key: string, adapter: AnyChannelAdapter, accountId: string, raw: unknown): Promise<void> {
    const ports = this.#p;
    const account: Account = { adapter, accountId, fingerprint: this.#fingerprint(adapter, accountId, raw) };
    let config: ChannelAccountBase;
    try {
      config = adapter.parseAccount(raw, accountId);
    } catch (error) {
      account.broken = `channels.${adapter.id}.accounts.${accountId}: ${error instanceof Error ? error.message : String(error)}`;
      this.#accounts.set(key, account);
      ports.log.warn(`${key}: ${account.broken}`);
      return;
    }
    account.config = config;
    this.#accounts.set(key, account);
    if (!config.enabled) {
      this.#accounts.delete(key);
      return;
    }
    const context: ChannelContext = {
      accountId,
      // Any change to the account's config restarts it (reconcile), so the parsed one stays true while it runs.
      account: () => config,
      clock: ports.clock,
      paths: ports.paths,
      env: ports.env,
      stateDir: join(ports.paths.root, 'channels', adapter.id),
      instanceId: this.#instanceId,
      addSecret: (secret) => ports.log.addSecret(secret),
      workspaceFor: (message) => this.#workspaceFor(message),
      isApproved: (senderId) => this.pairing.isApproved(adapter.id, accountId, senderId),
      onPairing: (request) => this.#requestPairing(adapter, accountId, request),
      onButton: async (press) =>
        ApprovalRelay.isPress(press.data)
          ? this.#relay!.press(press.data, { senderId: press.senderId, name: press.senderName, channel: adapter.id }, this.#ownerId(adapter.id, accountId))
          : 'This button is no longer answered.',
      onStatus: () => ports.clients.emit('channels.status', { channels: this.status() }),
      commands: () => ports.commands.list(),
      warn: (message) => ports.log.warn(message),
      info: (message) => ports.log.info(message),
      timings: this.#timings,
    };
    let channel: Channel;
    try {
      channel = await adapter.create(context);
    } catch (error) {
      account.broken = error instanceof Error ? error.message : String(error);
      ports.log.warn(`${adapter.id} ${accountId}: ${account.broken}`);
      ports.clients.emit('channels.status', { channels: this.status() });
      return;
    }
    account.channel = channel;
    await channel.start((message) => this.#accept(channel, message));
  }

  #channel(channelId: string, accountId: string | undefined): Channel | undefined {
    return accountId ? this.#accounts.get(keyOf(channelId, accountId))?.channel : undefined;
  }

  #running(channelId: string): string[] {
    return [...this.#accounts.values()].filter((a) => a.adapter.id === channelId && a.channel).map((a) => a.accountId);
  }

  async #accept(channel: Channel, received: InboundMessage): Promise<AcceptResult> {
    const ports = this.#p;
    // Only the owner's words are instructions; anyone else's (group members, other paired senders) reach the model fenced.
    const owner = received.accountId !== undefined && received.senderId !== undefined && received.senderId === this.#ownerId(channel.id, received.accountId);
    // The principal follows from these (principalOf): the owner, else a contact or, in a group, a group member.
    const message: InboundMessage = owner ? { ...received, owner: true } : { ...received, untrusted: true };
    const result = await ports.inbound.accept(message);
    const route = replyRouteOf(message);
    this.#sessionRoutes.set(result.sessionKey, route);
    if (result.status === 'started' || result.status === 'queued') {
      this.#runs.set(result.runId, route);
      channel.typing?.(route);
    }
    return result;
  }

  #onDelta(runId: string, sessionKey: string, delta: string): void {
    const route = this.#runs.get(runId);
    if (!route) return;
    const account = route.accountId ? this.#accounts.get(keyOf(route.channel, route.accountId)) : undefined;
    const channel = account?.channel;
    if (!channel || account.config?.streaming !== 'edit') return;
    let stream = this.#streams.get(runId);
    if (!stream) {
      stream = new StreamedReply(channel, route, this.#p.clock, (messageId) => notePreview(this.#p, sessionKey, runId, messageId));
      this.#streams.set(runId, stream);
    }
    stream.delta(delta);
  }

  /** The outbound half core calls with every turn's outcome for one of this adapter's routes. */
  async #deliver(adapter: AnyChannelAdapter, route: ReplyRoute, reply: OutboundReply): Promise<DeliveryResult> {
    const stream = this.#streams.get(reply.runId);
    this.#streams.delete(reply.runId);
    // A run this process accepted was streamed here, if at all; only a run replayed after a restart may have left a preview.
    const replayed = !this.#runs.delete(reply.runId);
    const toolSent = this.#toolSent.get(reply.sessionKey);
    this.#toolSent.delete(reply.sessionKey);
    const channel = this.#channel(adapter.id, route.accountId);
    if (reply.status === 'suppressed' || (reply.status === 'replied' && toolSent?.has(reply.text.trim()))) {
      stream?.cancel();
      return { delivered: true };
    }
    if (!channel) return this.#failed(adapter, reply, `${adapter.label} account "${route.accountId ?? '?'}" is not running; the reply was not sent`);
    // In a group, why a turn failed (a provider's error, a path) is the owner's business: the group hears only that there is no answer.
    const quiet = route.peer?.kind === 'group' && reply.status !== 'replied' && !reply.forSender;
    const failure = quiet ? '⚠️ I could not answer that; my owner can see why.' : `⚠️ ${reply.text || `the turn ${reply.status}`}`;
    const text = reply.status === 'replied' ? reply.text : failure;
    if (text.trim() === '') {
      stream?.cancel();
      return { delivered: true };
    }
    // The run names the reply: a platform that dedupes sends (Discord's nonce) sends it once even when a restart sends it again.
    // A preview a killed process left in the chat becomes the reply instead of staying beside it, half written.
    const streams = this.#accounts.get(keyOf(adapter.id, route.accountId ?? ''))?.config?.streaming === 'edit';
    const left = !stream && replayed && streams ? await previewLeftBy(this.#p, reply.sessionKey, reply.runId) : undefined;
    const result = stream ? await stream.finish(text, reply.runId) : await channel.send(route, { text, key: reply.runId, ...(left ? { edit: left } : {}) });
    if (!result.delivered) {
      const failed = await this.#failed(adapter, reply, result.error ?? 'unknown error');
      // While the chat still answers, whoever asked learns the reply did not arrive (best effort: this may fail too).
      if (!result.chatGone)
        await channel.send(route, { text: '⚠️ My reply could not be delivered here; the owner can read it in the transcript.' }).catch(() => undefined);
      return failed;
    }
    return { delivered: true, ...(result.messageIds[0] ? { messageId: result.messageIds[0] } : {}) };
  }

  /** A reply that did not reach its chat: said in the transcript and to every client, never reported delivered. */
  async #failed(adapter: AnyChannelAdapter, reply: OutboundReply, error: string): Promise<DeliveryResult> {
    const ports = this.#p;
    const message = `The reply to ${reply.messageId} was not delivered to ${adapter.label}: ${error}`;
    ports.log.warn(message);
    try {
      const session = await ports.sessions.open(reply.sessionKey);
      session.append({
        type: 'custom',
        customType: 'delivery_failed',
        data: { runId: reply.runId, messageId: reply.messageId, channel: adapter.id, error },
      });
    } catch (failure) {
      ports.log.warn(`could not record the failed delivery in ${reply.sessionKey}: ${String(failure)}`);
    }
    ports.clients.emit('chat', {
      runId: reply.runId,
      sessionKey: reply.sessionKey,
      state: 'error',
      message,
      hint: '`claw channels status` shows the channel; the reply is in the transcript.',
    });
    return { delivered: false, error: message };
  }

  #requestPairing(adapter: AnyChannelAdapter, accountId: string, request: { senderId: string; senderName: string; chatId: string }): string | undefined {
    const issued = this.pairing.request({ channel: adapter.id, accountId, senderId: request.senderId, senderName: request.senderName, chatId: request.chatId });
    if (!issued) {
      this.#p.log.warn(
        `${adapter.id} ${accountId}: ${request.senderName} asked to pair, but 3 codes are already pending; answer them with \`claw pairing list\``,
      );
      return undefined;
    }
    if (issued.created) {
      const pending = this.pairing.pending().find((p) => p.code === issued.code)!;
      this.#p.clients.emit('pairing.requested', {
        pairing: pending,
        notice: `${adapter.label}: ${request.senderName} (${request.senderId}) asks to pair — \`claw pairing approve ${issued.code}\` or /pairing`,
      });
    }
    return `I don't know you yet. Your pairing code is ${issued.code} (valid for 1 hour). Ask my owner to run: claw pairing approve ${issued.code}`;
  }

  /**
   * The account's owner, as the operator named them: `owner` in the
   * account's config, else a sender paired with `--owner`, else the first of
   * allowFrom. Pairing alone never makes an owner.
   */
  #ownerId(channelId: string, accountId: string): string | undefined {
    const config = this.#accounts.get(keyOf(channelId, accountId))?.config;
    const paired = this.pairing.owner(channelId, accountId);
    // An owner recorded before `--owner` existed was just the first sender paired: it counts only when nothing else names one.
    const explicit = paired?.ownerSince !== undefined ? paired.senderId : undefined;
    return config?.owner ?? explicit ?? config?.allowFrom[0] ?? paired?.senderId;
  }

  #ownerFor(sessionKey: string): OwnerChat | undefined {
    const route = this.#sessionRoutes.get(sessionKey);
    // After a restart no message has come in yet: the key itself names a channel session.
    const parsed = route ? undefined : parseSessionKey(sessionKey);
    const channelId = route?.channel ?? parsed?.channel;
    if (!channelId || !this.#adapters.some((adapter) => adapter.id === channelId)) return undefined;
    const accountId = route ? route.accountId : (parsed?.accountId ?? this.#running(channelId)[0]);
    if (!accountId) return undefined;
    const channel = this.#channel(channelId, accountId);
    const ownerId = this.#ownerId(channelId, accountId);
    if (!channel || !ownerId) return undefined;
    return { outbound: channel, ownerId, route: { channel: channelId, accountId, peer: { kind: 'direct', id: ownerId } } };
  }

  /** What the message tool may see of the running accounts, for one session. */
  #targets(sessionKey: string): TargetView {
    return {
      config: this.#p.config.current,
      adapters: this.#adapters,
      own: this.#sessionRoutes.get(sessionKey),
      accounts: [...this.#accounts.values()].flatMap((a) =>
        a.channel ? [{ adapter: a.adapter, accountId: a.accountId, channel: a.channel, config: a.config }] : [],
      ),
      approved: this.pairing.approved(),
      routes: this.#sessionRoutes.values(),
    };
  }

  #workspaceFor(message: InboundMessage): string {
    const { agentId } = routeInbound(message, this.#p.config.current);
    return this.#p.workspaces.dir(agentId);
  }

  #rememberToolSend(sessionKey: string, text: string): void {
    const set = this.#toolSent.get(sessionKey) ?? new Set<string>();
    set.add(text.trim());
    this.#toolSent.set(sessionKey, set);
  }
}

function clean(status: ChannelStatus): ChannelStatusInfo {
  return Object.fromEntries(Object.entries(status).filter(([, value]) => value !== undefined)) as ChannelStatusInfo;
}

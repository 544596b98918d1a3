import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { ClawConfig } from '../config/index.js';
import type { AcceptResult, Core, DeliveryResult, OutboundReply, Service, ServiceHealth } from '../core/index.js';
import type { ChannelStatusInfo, ReplyRoute } from '../protocol/index.js';
import { parseSessionKey, routeInbound } from '../routing/index.js';
import { ApprovalRelay, type OwnerChat } from './approval-relay.js';
import type { ChannelStatus } from './channel.js';
import type { InboundMessage } from './inbound.js';
import { createMessageTool, type TargetResolution } from './message-tool.js';
import { PairingStore, type ApprovedSender, type PendingPairing } from './pairing-store.js';
import { StreamedReply } from './stream-reply.js';
import type { TelegramChannel } from './telegram/telegram-channel.js';
import { TELEGRAM_CHANNEL } from './telegram/telegram-inbound.js';
import { readTelegramToken } from './telegram/token.js';

export interface ChannelsServiceOptions {
  /** Where tokenEnv is read; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Tests shorten the waits; defaults per SPEC. */
  reconnectFirstDelayMs?: number;
  lockRetryMs?: number;
  watchdogMs?: number;
}

/** A configured account that could not start (no token …): shown in status with the reason. */
interface Broken {
  accountId: string;
  reason: string;
}

/**
 * Runs every configured channel account (Telegram today): their inbound
 * halves feed `core.inbound`, their outbound halves are registered with
 * `core.outbound`, replies stream as edits, exec approvals reach the owner's
 * phone, pairing codes are issued and approved here, and the `message` tool
 * sends through them.
 */
export class ChannelsService implements Service {
  readonly name = 'channels';
  readonly #options: ChannelsServiceOptions;
  #core: Core | undefined;
  #pairing: PairingStore | undefined;
  #relay: ApprovalRelay | undefined;
  readonly #telegram = new Map<string, TelegramChannel>();
  #broken: Broken[] = [];
  /** Accepted run → where its reply goes (streaming previews). */
  readonly #runs = new Map<string, ReplyRoute>();
  /** Session → the channel route it was last reached on (approvals, the `message` tool's default target). */
  readonly #sessionRoutes = new Map<string, ReplyRoute>();
  readonly #streams = new Map<string, StreamedReply>();
  /** Texts the `message` tool already sent to a turn's own chat, per session. */
  readonly #toolSent = new Map<string, Set<string>>();
  #cleanup: Array<() => void> = [];

  constructor(options: ChannelsServiceOptions = {}) {
    this.#options = options;
  }

  get #c(): Core {
    if (!this.#core) throw new Error('the channels service has not started');
    return this.#core;
  }

  get pairing(): PairingStore {
    if (!this.#pairing) throw new Error('the channels service has not started');
    return this.#pairing;
  }

  async start(core: Core): Promise<void> {
    this.#core = core;
    this.#pairing = new PairingStore(join(core.paths.root, 'channels', 'pairing.json'), () => core.clock.now());
    this.#cleanup.push(core.outbound.register(TELEGRAM_CHANNEL, { deliver: (route, reply) => this.#deliver(route, reply), durable: true }));
    this.#cleanup.push(core.events.subscribe((record) => record.event === 'chat' && this.#onChat(record.text)));
    this.#relay = new ApprovalRelay({ inbox: core.tools.inbox, ownerFor: (key) => this.#ownerFor(key), warn: (m) => core.log.warn(m) });
    const tool = createMessageTool({ resolve: (input) => this.#resolveTarget(input), sentToOwnChat: (key, text) => this.#rememberToolSend(key, text) });
    core.tools.registry.register(tool as never);
    this.#cleanup.push(() => core.tools.registry.unregister(tool.name));
    const lockOwner = randomUUID();
    for (const [accountId, account] of Object.entries(core.config.current.channels.telegram.accounts)) {
      if (!account.enabled) continue;
      let token: string;
      try {
        token = readTelegramToken(account, accountId, core.paths, this.#options.env ?? process.env);
      } catch (error) {
        this.#broken.push({ accountId, reason: (error as Error).message });
        core.log.warn(`telegram ${accountId}: ${(error as Error).message}`);
        continue;
      }
      core.log.addSecret(token);
      // Loaded only for an enabled account: grammY and its fetch polyfills are a third of the gateway's code.
      const { TelegramChannel } = await import('./telegram/telegram-channel.js');
      const channel = new TelegramChannel({
        accountId,
        token,
        config: () => core.config.current.channels.telegram.accounts[accountId] ?? account,
        clock: core.clock,
        stateDir: join(core.paths.root, 'channels', 'telegram'),
        lockOwner,
        workspaceFor: (message) => this.#workspaceFor(message),
        isApproved: (senderId) => this.pairing.isApproved(TELEGRAM_CHANNEL, accountId, senderId),
        onPairing: (request) => this.#requestPairing(accountId, request),
        onCallback: async (press) =>
          ApprovalRelay.isPress(press.data)
            ? this.#relay!.press(press.data, { senderId: press.senderId, name: press.senderName, channel: TELEGRAM_CHANNEL }, this.#ownerId(accountId))
            : 'This button is no longer answered.',
        onStatus: () => core.events.emit('channels.status', { channels: this.status() }),
        warn: (message) => core.log.warn(message),
        ...(this.#options.reconnectFirstDelayMs ? { reconnectFirstDelayMs: this.#options.reconnectFirstDelayMs } : {}),
        ...(this.#options.lockRetryMs ? { lockRetryMs: this.#options.lockRetryMs } : {}),
        ...(this.#options.watchdogMs ? { watchdogMs: this.#options.watchdogMs } : {}),
      });
      this.#telegram.set(accountId, channel);
      await channel.start((message) => this.#accept(channel, message));
    }
  }

  async stop(): Promise<void> {
    for (const stream of this.#streams.values()) stream.cancel();
    this.#streams.clear();
    await Promise.all([...this.#telegram.values()].map((channel) => channel.stop()));
    this.#telegram.clear();
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
    const running = [...this.#telegram.values()].map((channel) => clean(channel.status()));
    const broken = this.#broken.map((b) => ({
      channel: TELEGRAM_CHANNEL,
      accountId: b.accountId,
      state: 'error' as const,
      reason: b.reason,
      reconnectAttempts: 0,
    }));
    return [...running, ...broken];
  }

  /** The codes waiting for an answer; none before the service has started (`/pairing` completion asks early). */
  pendingPairings(): PendingPairing[] {
    return this.#pairing?.pending() ?? [];
  }

  listPairings(): { pending: PendingPairing[]; approved: ApprovedSender[] } {
    return { pending: this.pairing.pending(), approved: this.pairing.approved() };
  }

  /** Approves a code and tells the sender; `told` is false when that message could not be sent. */
  async approvePairing(code: string): Promise<{ approved: ApprovedSender; told: boolean }> {
    const approved = this.pairing.approve(code);
    const channel = this.#telegram.get(approved.accountId);
    const text = approved.owner
      ? 'You are paired with this assistant, as its owner: you can talk to it here now, and approvals will come to you.'
      : 'You are paired with this assistant: you can talk to it here now.';
    const result = channel
      ? await channel.send({ channel: TELEGRAM_CHANNEL, accountId: approved.accountId, peer: { kind: 'direct', id: approved.chatId } }, { text })
      : undefined;
    return { approved, told: result?.delivered === true };
  }

  denyPairing(code: string): PendingPairing {
    return this.pairing.deny(code);
  }

  async #accept(channel: TelegramChannel, received: InboundMessage): Promise<AcceptResult> {
    const core = this.#c;
    // Only the owner's words are instructions; anyone else's (group members, other paired senders) reach the model fenced.
    const owner = received.accountId !== undefined && received.senderId !== undefined && received.senderId === this.#ownerId(received.accountId);
    const message: InboundMessage = owner ? { ...received, owner: true } : { ...received, untrusted: true };
    const result = await core.inbound.accept(message);
    const route: ReplyRoute = {
      channel: message.channel,
      ...(message.accountId ? { accountId: message.accountId } : {}),
      peer: message.peer,
      ...(message.threadId ? { threadId: message.threadId } : {}),
    };
    this.#sessionRoutes.set(result.sessionKey, route);
    if (result.status === 'started' || result.status === 'queued') {
      this.#runs.set(result.runId, route);
      channel.typing(route);
    }
    return result;
  }

  #onChat(text: string): void {
    const frame = JSON.parse(text) as { payload: { runId: string; sessionKey: string; state: string; delta?: string } };
    const { runId, state, delta } = frame.payload;
    const route = this.#runs.get(runId);
    if (!route || state !== 'delta' || delta === undefined) return;
    const channel = route.accountId ? this.#telegram.get(route.accountId) : undefined;
    const config = route.accountId ? this.#c.config.current.channels.telegram.accounts[route.accountId] : undefined;
    if (!channel || config?.streaming !== 'edit') return;
    let stream = this.#streams.get(runId);
    if (!stream) {
      stream = new StreamedReply(channel, route, this.#c.clock);
      this.#streams.set(runId, stream);
    }
    stream.delta(delta);
  }

  /** The outbound half core calls with every turn's outcome for a Telegram route. */
  async #deliver(route: ReplyRoute, reply: OutboundReply): Promise<DeliveryResult> {
    const stream = this.#streams.get(reply.runId);
    this.#streams.delete(reply.runId);
    this.#runs.delete(reply.runId);
    const toolSent = this.#toolSent.get(reply.sessionKey);
    this.#toolSent.delete(reply.sessionKey);
    const channel = route.accountId ? this.#telegram.get(route.accountId) : undefined;
    if (reply.status === 'suppressed') {
      stream?.cancel();
      return { delivered: true };
    }
    if (reply.status === 'replied' && toolSent?.has(reply.text.trim())) {
      stream?.cancel();
      return { delivered: true };
    }
    if (!channel) return this.#failed(reply, `Telegram account "${route.accountId ?? '?'}" is not running; the reply was not sent`);
    const text = reply.status === 'replied' ? reply.text : `⚠️ ${reply.text || `the turn ${reply.status}`}`;
    if (text.trim() === '') {
      stream?.cancel();
      return { delivered: true };
    }
    const result = stream ? await stream.finish(text) : await channel.send(route, { text });
    if (!result.delivered) return this.#failed(reply, result.error ?? 'unknown error');
    return { delivered: true, ...(result.messageIds[0] ? { messageId: result.messageIds[0] } : {}) };
  }

  /** A reply that did not reach Telegram: said in the transcript and to every client, never reported delivered. */
  async #failed(reply: OutboundReply, error: string): Promise<DeliveryResult> {
    const core = this.#c;
    const message = `The reply to ${reply.messageId} was not delivered to Telegram: ${error}`;
    core.log.warn(message);
    try {
      const session = await core.sessions.registry.open(reply.sessionKey);
      session.append({
        type: 'custom',
        customType: 'delivery_failed',
        data: { runId: reply.runId, messageId: reply.messageId, channel: TELEGRAM_CHANNEL, error },
      });
    } catch (failure) {
      core.log.warn(`could not record the failed delivery in ${reply.sessionKey}: ${String(failure)}`);
    }
    core.events.emit('chat', {
      runId: reply.runId,
      sessionKey: reply.sessionKey,
      state: 'error',
      message,
      hint: '`claw channels status` shows the channel; the reply is in the transcript.',
    });
    return { delivered: false, error: message };
  }

  #requestPairing(accountId: string, request: { senderId: string; senderName: string; chatId: string }): string | undefined {
    const issued = this.pairing.request({
      channel: TELEGRAM_CHANNEL,
      accountId,
      senderId: request.senderId,
      senderName: request.senderName,
      chatId: request.chatId,
    });
    if (!issued) {
      this.#c.log.warn(`telegram ${accountId}: ${request.senderName} asked to pair, but 3 codes are already pending; answer them with \`claw pairing list\``);
      return undefined;
    }
    if (issued.created) {
      const pending = this.pairing.pending().find((p) => p.code === issued.code)!;
      this.#c.events.emit('pairing.requested', {
        pairing: pending,
        notice: `Telegram: ${request.senderName} (${request.senderId}) asks to pair — \`claw pairing approve ${issued.code}\` or /pairing`,
      });
    }
    return `I don't know you yet. Your pairing code is ${issued.code} (valid for 1 hour). Ask my owner to run: claw pairing approve ${issued.code}`;
  }

  #ownerId(accountId: string): string | undefined {
    return this.pairing.owner(TELEGRAM_CHANNEL, accountId)?.senderId ?? this.#c.config.current.channels.telegram.accounts[accountId]?.allowFrom[0];
  }

  #ownerFor(sessionKey: string): OwnerChat | undefined {
    const route = this.#sessionRoutes.get(sessionKey);
    // After a restart no message has come in yet: the key itself names a Telegram session.
    const parsed = route ? undefined : parseSessionKey(sessionKey);
    const accountId =
      route?.channel === TELEGRAM_CHANNEL
        ? route.accountId
        : parsed?.channel === TELEGRAM_CHANNEL
          ? (parsed.accountId ?? [...this.#telegram.keys()][0])
          : undefined;
    if (!accountId) return undefined;
    const channel = this.#telegram.get(accountId);
    const ownerId = this.#ownerId(accountId);
    if (!channel || !ownerId) return undefined;
    return { outbound: channel, ownerId, route: { channel: TELEGRAM_CHANNEL, accountId, peer: { kind: 'direct', id: ownerId } } };
  }

  #workspaceFor(message: InboundMessage): string {
    const config = this.#c.config.current;
    const { agentId } = routeInbound(message, config);
    return config.agents.list.find((agent) => agent.id === agentId)?.workspace ?? this.#c.paths.workspace(agentId);
  }

  #rememberToolSend(sessionKey: string, text: string): void {
    const set = this.#toolSent.get(sessionKey) ?? new Set<string>();
    set.add(text.trim());
    this.#toolSent.set(sessionKey, set);
  }

  /** The account an agent speaks through: its own route's, then a binding's, then the only/first account. */
  #accountFor(agentId: string, config: ClawConfig, own: ReplyRoute | undefined): string | undefined {
    if (own?.channel === TELEGRAM_CHANNEL && own.accountId) return own.accountId;
    const bound = config.bindings.find((b) => b.agentId === agentId && b.match.channel === TELEGRAM_CHANNEL && b.match.accountId);
    return bound?.match.accountId ?? [...this.#telegram.keys()][0];
  }

  #resolveTarget(input: {
    agentId: string;
    sessionKey: string;
    channel?: string | undefined;
    to?: string | undefined;
    threadId?: string | undefined;
  }): TargetResolution {
    const config = this.#c.config.current;
    const own = this.#sessionRoutes.get(input.sessionKey);
    const known = [...this.#telegram.keys()].map((id) => `${TELEGRAM_CHANNEL}:${id}`);
    const [channelName, accountHint] = (input.channel ?? own?.channel ?? TELEGRAM_CHANNEL).split(':');
    if (channelName !== TELEGRAM_CHANNEL || (accountHint && !this.#telegram.has(accountHint))) {
      return { ok: false, error: `Unknown channel "${input.channel}". Known: ${known.length > 0 ? known.join(', ') : 'none (no channel is running)'}.` };
    }
    const accountId = accountHint ?? this.#accountFor(input.agentId, config, own);
    const channel = accountId ? this.#telegram.get(accountId) : undefined;
    if (!channel || !accountId) return { ok: false, error: `No Telegram account is running. Known channels: ${known.join(', ') || 'none'}.` };
    const chats = this.#knownChats(accountId, config);
    const to = input.to ?? (own?.accountId === accountId ? own.peer?.id : undefined);
    if (!to) return { ok: false, error: `Say which chat with "to". Known chats: ${[...chats.keys()].join(', ') || 'none yet'}.` };
    const kind = chats.get(to);
    if (!kind) return { ok: false, error: `Unknown target "${to}" on telegram:${accountId}. Known chats: ${[...chats.keys()].join(', ') || 'none yet'}.` };
    const threadId = input.threadId ?? (own?.peer?.id === to ? own.threadId : undefined);
    const route: ReplyRoute = { channel: TELEGRAM_CHANNEL, accountId, peer: { kind, id: to }, ...(threadId ? { threadId } : {}) };
    const ownChat = own?.accountId === accountId && own.peer?.id === to && own.threadId === threadId;
    return { ok: true, outbound: channel, route, ownChat };
  }

  /** Chats this account may write to: allowlisted users and groups, approved senders, chats seen this run. */
  #knownChats(accountId: string, config: ClawConfig): Map<string, 'direct' | 'group'> {
    const account = config.channels.telegram.accounts[accountId];
    const chats = new Map<string, 'direct' | 'group'>();
    for (const id of account?.allowFrom ?? []) chats.set(id, 'direct');
    for (const id of Object.keys(account?.groups ?? {})) chats.set(id, 'group');
    for (const sender of this.pairing.approved()) if (sender.accountId === accountId) chats.set(sender.chatId, 'direct');
    for (const route of this.#sessionRoutes.values()) if (route.accountId === accountId && route.peer) chats.set(route.peer.id, route.peer.kind);
    return chats;
  }
}

function clean(status: ChannelStatus): ChannelStatusInfo {
  return Object.fromEntries(Object.entries(status).filter(([, value]) => value !== undefined)) as ChannelStatusInfo;
}

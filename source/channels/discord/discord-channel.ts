import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { sleepOn, type Clock } from '../../config/index.js';
import type { CommandInfo, ReplyRoute } from '../../protocol/index.js';
import type { InboundMessage, InboundSink } from '../../queue/index.js';
import type { ButtonPress } from '../adapter.js';
import type { Channel, ChannelReply, ChannelSendResult, ChannelStatus } from '../channel.js';
import { TokenLock } from '../token-lock.js';
import { DISCORD_CHANNEL, type DiscordAccountConfig } from './config.js';
import { applicationCommands, CommandSync } from './commands.js';
import { ChannelCursors, laterId } from './cursors.js';
import { DiscordGateway } from './gateway.js';
import { decideDiscord, PeerRate, type ChannelInfo, type DiscordMessage } from './inbound.js';
import { DiscordRest } from './rest.js';
import { describeDiscordError, DiscordSender } from './send.js';

/** GUILDS, GUILD_MESSAGES, DIRECT_MESSAGES and MESSAGE_CONTENT (privileged: switched on under Bot in the Developer Portal). */
export const DISCORD_INTENTS = (1 << 0) | (1 << 9) | (1 << 12) | (1 << 15);
/** Bots may download attachments of any size Discord hosts; past this the file is named, not saved. */
const MAX_ATTACHMENT_BYTES = 25 * 1024 * 1024;
const LOCK_RETRY_MS = 5_000;

export interface DiscordChannelOptions {
  accountId: string;
  token: string;
  config: () => DiscordAccountConfig;
  clock: Clock;
  /** `<state>/channels/discord`: the connection locks and catch-up cursors. */
  stateDir: string;
  lockOwner: string;
  workspaceFor(message: InboundMessage): string;
  isApproved(senderId: string): boolean;
  onPairing(request: { senderId: string; senderName: string; chatId: string }): string | undefined;
  onButton(press: ButtonPress): Promise<string>;
  onStatus(): void;
  /** claw's slash commands, for Discord's command menu. */
  commands(): Promise<CommandInfo[]>;
  warn(message: string): void;
  info(message: string): void;
  reconnectFirstDelayMs?: number;
  lockRetryMs?: number;
  stableMs?: number;
}

interface Interaction {
  id: string;
  token: string;
  type: number;
  channel_id?: string;
  guild_id?: string;
  member?: { user: DiscordMessage['author'] };
  user?: DiscordMessage['author'];
  data?: { custom_id?: string; name?: string; options?: Array<{ name: string; value?: unknown }> };
}

/** Interaction types: a slash command, a button press. */
const APPLICATION_COMMAND = 2;
const MESSAGE_COMPONENT = 3;

/**
 * One Discord bot account over the Gateway (push) and REST. One socket per
 * token per machine (a lock in the state dir; a second gateway waits). A
 * message is acknowledged to nobody but the journal: the sink resolves once
 * it is durable, the journal drops the copies a RESUME replay or a catch-up
 * brings. After a fresh session (a restart, an invalidated session) the
 * history since the last message seen is fetched per channel, capped.
 */
export class DiscordChannel implements Channel {
  readonly id = DISCORD_CHANNEL;
  readonly accountId: string;
  readonly #options: DiscordChannelOptions;
  readonly #rest: DiscordRest;
  readonly #sender: DiscordSender;
  readonly #gateway: DiscordGateway;
  readonly #lock: TokenLock;
  readonly #cursors: ChannelCursors;
  readonly #commandSync: CommandSync;
  readonly #rate = new PeerRate();
  readonly #stop = new AbortController();
  readonly #channels = new Map<string, ChannelInfo>();
  #sink: InboundSink | undefined;
  /** Inbound work (live events and catch-up) runs in order, one at a time. */
  #serial: Promise<void> = Promise.resolve();
  #starting: Promise<void> = Promise.resolve();
  #status: ChannelStatus;
  #handled = 0;
  readonly #ignored: Record<string, number> = {};

  constructor(options: DiscordChannelOptions) {
    this.#options = options;
    this.accountId = options.accountId;
    this.#rest = new DiscordRest({ apiRoot: options.config().apiRoot, token: options.token, clock: options.clock, signal: this.#stop.signal });
    this.#sender = new DiscordSender(this.#rest, options.clock);
    this.#lock = new TokenLock(join(options.stateDir, 'locks'), options.token, options.lockOwner);
    this.#cursors = new ChannelCursors(join(options.stateDir, 'cursors'), options.token);
    this.#commandSync = new CommandSync(join(options.stateDir, 'commands'), options.token);
    this.#gateway = new DiscordGateway({
      token: options.token,
      intents: DISCORD_INTENTS,
      clock: options.clock,
      rest: this.#rest,
      onDispatch: (type, data, seq) => this.#onDispatch(type, data).then(() => this.#cursors.handled(seq)),
      resume: this.#cursors.session,
      onSession: (session) => void this.#cursors.setSession(session),
      onReady: (identity, resumed) => {
        this.#status.identity = `@${identity.username}`;
        this.#set('running');
        if (resumed) return;
        this.#enqueue(() => this.#catchUp());
        void this.#syncCommands(identity.applicationId);
      },
      onState: (state, reason) => this.#set(state, reason),
      info: options.info,
      ...(options.reconnectFirstDelayMs ? { reconnectFirstDelayMs: options.reconnectFirstDelayMs } : {}),
      ...(options.stableMs ? { stableMs: options.stableMs } : {}),
    });
    this.#status = { channel: DISCORD_CHANNEL, accountId: options.accountId, state: 'stopped', reconnectAttempts: 0 };
  }

  /** The gateway connection's counters (the bench reads them). */
  get gateway(): DiscordGateway {
    return this.#gateway;
  }

  status(): ChannelStatus {
    return {
      ...this.#status,
      reconnectAttempts: this.#gateway.attempts,
      lastOutboundAt: this.#sender.lastSentAt,
      handled: this.#handled,
      ignored: { ...this.#ignored },
    };
  }

  async start(sink: InboundSink): Promise<void> {
    this.#sink = sink;
    this.#set('starting');
    this.#starting = this.#takeLock().then(() => {
      if (!this.#stop.signal.aborted) this.#gateway.start();
    });
  }

  async stop(): Promise<void> {
    this.#stop.abort(new Error('channel stopped'));
    await this.#starting;
    await this.#gateway.stop();
    await this.#serial;
    await this.#cursors.flush();
    this.#lock.release();
    this.#set('stopped');
  }

  send(route: ReplyRoute, reply: ChannelReply): Promise<ChannelSendResult> {
    return this.#sender.send(route, reply);
  }

  react(route: ReplyRoute, messageId: string, emoji: string): Promise<ChannelSendResult> {
    return this.#sender.react(route, messageId, emoji);
  }

  typing(route: ReplyRoute): void {
    this.#sender.typing(route);
  }

  chats(): ReadonlyArray<{ id: string; kind: 'direct' | 'group' }> {
    const listed = Object.values(this.#options.config().guilds).flatMap((guild) => (guild.channels === '*' ? [] : guild.channels));
    return listed.map((id) => ({ id, kind: 'group' as const }));
  }

  /** One socket per token on this machine: a second gateway waits here until the first lets go. */
  async #takeLock(): Promise<void> {
    while (!this.#stop.signal.aborted) {
      const taken = this.#lock.tryAcquire();
      if (taken.acquired) return;
      this.#set('reconnecting', `another gateway (pid ${taken.holder.pid}) holds this bot's connection; waiting for it to stop`);
      await sleepOn(this.#options.clock, this.#options.lockRetryMs ?? LOCK_RETRY_MS, this.#stop.signal).catch(() => undefined);
    }
  }

  #set(state: ChannelStatus['state'], reason?: string): void {
    const changed = this.#status.state !== state || this.#status.reason !== reason;
    this.#status = { ...this.#status, state, reason };
    if (state === 'error' && reason) this.#options.warn(`discord ${this.accountId}: ${reason}`);
    if (changed) this.#options.onStatus();
  }

  #enqueue(work: () => Promise<void>): Promise<void> {
    const next = this.#serial.then(work).catch((error: unknown) => this.#options.warn(`discord ${this.accountId}: ${describeDiscordError(error)}`));
    this.#serial = next;
    return next;
  }

  #onDispatch(type: string, data: unknown): Promise<void> {
    switch (type) {
      case 'MESSAGE_CREATE':
        return this.#enqueue(() => this.#handle(data as DiscordMessage));
      case 'INTERACTION_CREATE':
        return this.#interaction(data as Interaction);
      case 'THREAD_CREATE':
      case 'CHANNEL_CREATE':
      case 'CHANNEL_UPDATE': {
        const channel = data as { id: string; type: number; parent_id?: string; name?: string };
        this.#channels.set(channel.id, { id: channel.id, type: channel.type, parentId: channel.parent_id, name: channel.name });
        return Promise.resolve();
      }
      default:
        return Promise.resolve();
    }
  }

  async #channelInfo(id: string): Promise<ChannelInfo | undefined> {
    const known = this.#channels.get(id);
    if (known) return known;
    try {
      const channel = await this.#rest.request<{ id: string; type: number; parent_id?: string; name?: string }>('GET', `/channels/${id}`);
      const info = { id: channel.id, type: channel.type, parentId: channel.parent_id, name: channel.name };
      this.#channels.set(id, info);
      return info;
    } catch {
      return undefined;
    }
  }

  #ignore(reason: string, why: string): void {
    this.#ignored[reason] = (this.#ignored[reason] ?? 0) + 1;
    this.#options.info(`discord ${this.accountId}: ignored a message: ${why}`);
  }

  async #handle(message: DiscordMessage): Promise<void> {
    const sink = this.#sink;
    const botId = this.#gateway.identity?.userId;
    if (!sink || !botId) return;
    const config = this.#options.config();
    // Catch-up covers the chats claw may answer in: DMs and the allowed guilds.
    if (!message.guild_id || config.guilds[message.guild_id]) await this.#cursors.open(message.channel_id, message.id);
    const channel = message.guild_id ? await this.#channelInfo(message.channel_id) : undefined;
    const decision = decideDiscord(message, { accountId: this.accountId, config, botId, isApproved: this.#options.isApproved, channel });
    const { clock } = this.#options;
    // The owner is never cut off; anyone else flooding a chat (a loop through another integration) is.
    const owner = message.author.id === (config.owner ?? config.allowFrom[0]);
    if (decision.action !== 'ignore' && !owner && !this.#rate.allow(message.channel_id, clock.now(), config.maxMessagesPerMinute)) {
      this.#ignore('too many messages', `more than ${config.maxMessagesPerMinute} a minute in ${message.channel_id} (maxMessagesPerMinute)`);
    } else if (decision.action === 'ignore') {
      this.#ignore(decision.reason, decision.why);
    } else if (decision.action === 'pair') {
      const text = this.#options.onPairing({ senderId: decision.senderId, senderName: decision.senderName, chatId: decision.chatId });
      this.#sender.rememberDm(message.author.id, message.channel_id);
      if (text) await this.#sender.send({ channel: DISCORD_CHANNEL, accountId: this.accountId, peer: { kind: 'direct', id: decision.chatId } }, { text });
    } else {
      if (!message.guild_id) this.#sender.rememberDm(message.author.id, message.channel_id);
      const inbound = await this.#withAttachments(message, decision.message);
      await sink(inbound);
      this.#handled += 1;
      this.#status.lastInboundAt = clock.now();
    }
    // Behind the journal: a crash before this line only re-reads what the journal already dedupes.
    if (this.#cursors.get(message.channel_id) !== undefined && this.#cursors.advance(message.channel_id, message.id)) void this.#cursors.flush();
  }

  /** What was written while claw was away, per channel since the last message seen, oldest first; the journal drops what it has. */
  async #catchUp(): Promise<void> {
    const config = this.#options.config();
    if (config.catchUpLimit === 0) return;
    const listed = this.chats().map((chat) => chat.id);
    for (const channelId of new Set([...this.#cursors.channels(), ...listed])) {
      const after = this.#cursors.get(channelId);
      if (!after || this.#stop.signal.aborted) continue;
      let missed: DiscordMessage[];
      try {
        missed = await this.#rest.request<DiscordMessage[]>('GET', `/channels/${channelId}/messages?after=${after}&limit=${config.catchUpLimit}`);
      } catch (error) {
        this.#options.info(`discord ${this.accountId}: no catch-up in ${channelId}: ${describeDiscordError(error)}`);
        continue;
      }
      missed.sort((a, b) => (laterId(a.id, b.id) ? 1 : -1));
      if (missed.length === config.catchUpLimit)
        this.#options.warn(
          `discord ${this.accountId}: ${channelId} had ${config.catchUpLimit}+ messages while claw was away; only the newest ${config.catchUpLimit} are read (catchUpLimit)`,
        );
      for (const message of missed) await this.#handle(message);
    }
  }

  async #syncCommands(applicationId: string): Promise<void> {
    try {
      const result = await this.#commandSync.sync(this.#rest, applicationId, applicationCommands(await this.#options.commands()));
      if (result === 'registered') this.#options.info(`discord ${this.accountId}: registered the slash commands with Discord`);
    } catch (error) {
      this.#options.warn(`discord ${this.accountId}: slash commands not registered: ${describeDiscordError(error)}`);
    }
  }

  #interaction(interaction: Interaction): Promise<void> {
    if (interaction.type === MESSAGE_COMPONENT) return this.#press(interaction);
    if (interaction.type === APPLICATION_COMMAND) return this.#enqueue(() => this.#slashCommand(interaction));
    return Promise.resolve();
  }

  /**
   * A command picked from Discord's menu is a message `/name args` from its
   * user, decided like any other (the bot is addressed, so no mention is
   * needed); Discord is answered at once, privately, and the command's
   * answer comes as a reply in the chat.
   */
  async #slashCommand(interaction: Interaction): Promise<void> {
    const user = interaction.member?.user ?? interaction.user;
    const name = interaction.data?.name;
    const botId = this.#gateway.identity?.userId;
    if (!user || !name || !interaction.channel_id || !botId || !this.#sink) return;
    const args = interaction.data?.options?.find((o) => o.name === 'args')?.value;
    const content = `/${name}${typeof args === 'string' && args.trim() ? ` ${args.trim()}` : ''}`;
    const message: DiscordMessage = {
      id: interaction.id,
      channel_id: interaction.channel_id,
      ...(interaction.guild_id ? { guild_id: interaction.guild_id } : {}),
      author: user,
      content,
      type: 0,
      mentions: [{ id: botId, username: this.#gateway.identity?.username ?? '' }],
    };
    const config = this.#options.config();
    const channel = message.guild_id ? await this.#channelInfo(message.channel_id) : undefined;
    const decision = decideDiscord(message, { accountId: this.accountId, config, botId, isApproved: this.#options.isApproved, channel });
    if (decision.action === 'ignore') {
      this.#ignore(decision.reason, decision.why);
      await this.#sender.answerInteraction(interaction.id, interaction.token, 'I do not answer commands here.');
      return;
    }
    if (decision.action === 'pair') {
      const text = this.#options.onPairing({ senderId: decision.senderId, senderName: decision.senderName, chatId: decision.chatId });
      await this.#sender.answerInteraction(interaction.id, interaction.token, text ?? 'I do not know you yet.');
      return;
    }
    if (!message.guild_id) this.#sender.rememberDm(user.id, message.channel_id);
    // Discord wants an answer within 3 s: it comes before the turn, the command's answer after it.
    await this.#sender.answerInteraction(interaction.id, interaction.token, `\`${content}\` — the answer follows in this chat.`);
    await this.#sink(decision.message);
    this.#handled += 1;
  }

  async #press(interaction: Interaction): Promise<void> {
    const user = interaction.member?.user ?? interaction.user;
    const data = interaction.data?.custom_id;
    if (!user || !data) return;
    const answer = await this.#options.onButton({ senderId: user.id, senderName: user.global_name || user.username, data });
    await this.#sender.answerInteraction(interaction.id, interaction.token, answer);
  }

  /** Saves a message's attachments under the workspace's inbox/ and names them in the text. */
  async #withAttachments(message: DiscordMessage, inbound: InboundMessage): Promise<InboundMessage> {
    const files = message.attachments ?? [];
    if (files.length === 0) return inbound;
    const workspace = this.#options.workspaceFor(inbound);
    let text = inbound.text.trim();
    const attachments = [...(inbound.attachments ?? [])];
    for (const file of files) {
      const kind = kindOf(file.content_type);
      const path = join(workspace, 'inbox', `${message.channel_id}-${message.id}-${file.filename}`.replace(/[^\w.-]/g, '_'));
      try {
        if (file.size > MAX_ATTACHMENT_BYTES) throw new Error(`it is ${Math.round(file.size / 1048576)} MB (over 25 MB)`);
        const response = await fetch(file.url, { signal: this.#stop.signal });
        if (!response.ok) throw new Error(`download answered ${response.status}`);
        await mkdir(join(workspace, 'inbox'), { recursive: true });
        await writeFile(path, Buffer.from(await response.arrayBuffer()));
        attachments.push({ kind, path });
        text = `${text}\n[${kind} saved: ${relative(workspace, path)}]`;
      } catch (error) {
        text = `${text}\n[${kind} ${file.filename} not saved: ${describeDiscordError(error)}]`;
      }
    }
    return { ...inbound, text: text.trim(), attachments };
  }
}

function kindOf(contentType: string | undefined): 'photo' | 'audio' | 'video' | 'document' {
  if (contentType?.startsWith('image/')) return 'photo';
  if (contentType?.startsWith('audio/')) return 'audio';
  if (contentType?.startsWith('video/')) return 'video';
  return 'document';
}

import type { ClawConfig, Clock, StatePaths } from '../config/index.js';
import type { Channel } from './channel.js';
import type { CommandInfo } from '../protocol/index.js';
import type { InboundMessage } from '../queue/index.js';

/** What every account of every channel has in claw.json, whatever else its adapter reads. */
export interface ChannelAccountBase {
  enabled: boolean;
  /** Platform ids allowed to talk to the bot; the first is the owner when `owner` is not set. */
  allowFrom: readonly string[];
  /** Who answers approvals from this account (their platform id); default: a sender paired with `--owner`, else allowFrom[0]. */
  owner?: string | undefined;
  /** Group chats the bot answers in, by platform id. */
  groups?: Readonly<Record<string, unknown>>;
  /** `edit`: a reply streams into one message edited as it grows. */
  streaming?: 'off' | 'edit';
  /** Where the account's secret comes from instead of `credentials/` (channels with a `credential`). */
  tokenFile?: string | undefined;
  tokenEnv?: string | undefined;
  /** Who may start a direct chat: `claw channels list` shows it. */
  dmPolicy?: string | undefined;
}

/** The secret an account needs (a bot token): `claw channels login <channel>` stores it, `readChannelToken` reads it. */
export interface ChannelCredential {
  /** What it is called in messages (`bot token`). */
  label: string;
  /** The prompt `claw channels login` shows at a terminal (the answer is not echoed). */
  prompt: string;
  /** Trims and checks a pasted secret's shape; throws with what to do when it is wrong. */
  check(token: string): string;
}

/** An inline button press on a channel that has buttons. */
export interface ButtonPress {
  senderId: string;
  senderName: string;
  data: string;
}

/** What the host hands an adapter to build one account's channel. */
export interface ChannelContext<Account extends ChannelAccountBase = ChannelAccountBase> {
  accountId: string;
  /** The account's config as it is now (read it when acting: it changes live). */
  account(): Account;
  clock: Clock;
  paths: StatePaths;
  /** Where `*Env` keys are read. */
  env: NodeJS.ProcessEnv;
  /** `<state>/channels/<channel id>`: the adapter's own files (cursors, locks). */
  stateDir: string;
  /** Unique per gateway instance: names this process in lock files. */
  instanceId: string;
  /** Tells the logger to redact a secret (a bot token) from every line. */
  addSecret(secret: string): void;
  /** The workspace folder a message's attachments are saved under. */
  workspaceFor(message: InboundMessage): string;
  /** Whether the sender has been approved by pairing. */
  isApproved(senderId: string): boolean;
  /** An unknown sender under dmPolicy pairing: the text to send them, or undefined to stay silent. */
  onPairing(request: { senderId: string; senderName: string; chatId: string }): string | undefined;
  /** A button press; resolves to the short answer shown to the presser. */
  onButton(press: ButtonPress): Promise<string>;
  /** The channel's status changed (clients are told). */
  onStatus(): void;
  /** The slash commands a chat may run now: a platform with a command menu registers them. */
  commands(): Promise<CommandInfo[]>;
  warn(message: string): void;
  /** Routine facts worth a log line (an update ignored, and why). */
  info(message: string): void;
  /** Tests shorten the waits; each adapter reads what it has. */
  timings: Readonly<Record<string, number>>;
}

/**
 * A chat platform, as the channel host runs it: one entry in `registry.ts`.
 * The host reads `channels.<id>.accounts` from claw.json, validates each
 * account with `parseAccount`, and builds, restarts or stops accounts as the
 * config changes; everything platform-specific stays behind `create`.
 */
export interface ChannelAdapter<Account extends ChannelAccountBase = ChannelAccountBase> {
  /** The channel's name in config keys, session keys and routes (`telegram`). */
  readonly id: string;
  /** How people call it in messages (`Telegram`). */
  readonly label: string;
  /** The accounts configured for this channel, raw (validated one by one with `parseAccount`). */
  accounts(config: ClawConfig): Readonly<Record<string, unknown>>;
  /** The account's secret, when it has one: login, `claw channels list` and live re-tokening follow from it. */
  readonly credential?: ChannelCredential;
  /** Validates one account's config; throws with what to fix. */
  parseAccount(raw: unknown, accountId: string): Account;
  /** Builds one account's channel (reading its secret); throws with what to fix when it cannot. */
  create(context: ChannelContext<Account>): Promise<Channel>;
}

/** An adapter whose account type was checked when it was listed. */
export type AnyChannelAdapter = ChannelAdapter<ChannelAccountBase>;

import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../config/index.js';
import { tokenFingerprint } from '../token-lock.js';
import type { GatewaySession } from './gateway.js';

/** Discord ids grow with time: the larger id is the later message. */
export const laterId = (a: string, b: string): boolean => a.length > b.length || (a.length === b.length && a > b);

/**
 * Where reading stopped: the Gateway session and its last handled dispatch
 * (a restart RESUMEs it, and Discord replays what the dead process missed),
 * and the newest message handed to the journal per channel (when the session
 * cannot be resumed, the history since it is fetched: catch-up). Written
 * behind the journal, whose dedupe makes a re-read harmless.
 */
export class ChannelCursors {
  readonly #file: string;
  readonly #ids: Record<string, string>;
  #session: GatewaySession | undefined;
  #writing: Promise<void> = Promise.resolve();
  #dirty = false;

  constructor(dir: string, token: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.#file = join(dir, `${tokenFingerprint(token)}.cursors.json`);
    const saved = read(this.#file);
    this.#ids = saved.channels;
    this.#session = saved.session;
  }

  get session(): GatewaySession | undefined {
    return this.#session;
  }

  /** A new session (or none): saved at once, so a crash right after READY still resumes it. */
  setSession(session: GatewaySession | undefined): Promise<void> {
    this.#session = session;
    this.#dirty = true;
    return this.flush();
  }

  /** The dispatch `seq` was handled; written with the next flush. */
  handled(seq: number): void {
    if (!this.#session || seq <= this.#session.seq) return;
    this.#session = { ...this.#session, seq };
    this.#dirty = true;
  }

  get(channelId: string): string | undefined {
    return this.#ids[channelId];
  }

  channels(): string[] {
    return Object.keys(this.#ids);
  }

  /** Records a message; false when an equal or later one is already recorded. */
  advance(channelId: string, messageId: string): boolean {
    const known = this.#ids[channelId];
    if (known !== undefined && !laterId(messageId, known)) return false;
    this.#ids[channelId] = messageId;
    this.#dirty = true;
    return true;
  }

  /**
   * A channel seen for the first time: its position just before `messageId`
   * is on disk before the message goes anywhere, so a crash before the
   * journal has it still finds it in the catch-up (there is no position to
   * catch up from otherwise: Discord lists no bot's DM channels).
   */
  async open(channelId: string, messageId: string): Promise<void> {
    if (this.#ids[channelId] !== undefined) return;
    this.#ids[channelId] = (BigInt(messageId) - 1n).toString();
    this.#dirty = true;
    await this.flush();
  }

  /** Writes the cursors if they changed; resolves once on disk. */
  flush(): Promise<void> {
    if (!this.#dirty) return this.#writing;
    this.#dirty = false;
    const text = `${JSON.stringify({ channels: this.#ids, ...(this.#session ? { session: this.#session } : {}) })}\n`;
    this.#writing = this.#writing.then(() => writeFileAtomic(this.#file, text, 0o600)).catch(() => undefined);
    return this.#writing;
  }
}

function read(file: string): { channels: Record<string, string>; session?: GatewaySession } {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { channels?: unknown; session?: Partial<GatewaySession> };
    const channels = typeof parsed.channels === 'object' && parsed.channels !== null ? parsed.channels : {};
    const session = parsed.session;
    const valid =
      typeof session?.id === 'string' &&
      typeof session.resumeUrl === 'string' &&
      typeof session.seq === 'number' &&
      typeof session.userId === 'string' &&
      typeof session.username === 'string' &&
      typeof session.applicationId === 'string';
    return {
      channels: Object.fromEntries(Object.entries(channels).filter((entry): entry is [string, string] => typeof entry[1] === 'string')),
      ...(valid ? { session: session as GatewaySession } : {}),
    };
  } catch {
    // Missing or torn: start without a position (the journal dedupes whatever is read again).
    return { channels: {} };
  }
}

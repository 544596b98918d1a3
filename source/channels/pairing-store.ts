import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomicSync, type Clock } from '../config/index.js';
import { approvedSender, pendingPairing, lazySchema } from '../protocol/index.js';

export const PAIRING_CODE_TTL_MS = 60 * 60_000;
export const MAX_PENDING_PAIRINGS = 3;
/** No 0/O, 1/I/L: a code is read off a phone and typed into a terminal. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** The records are the ones `channels.pairing.*` answers with: declared once, in protocol/. */
export type PendingPairing = z.infer<typeof pendingPairing>;
export type ApprovedSender = z.infer<typeof approvedSender>;

const fileShape = lazySchema(() => z.strictObject({ version: z.literal(1), pending: z.array(pendingPairing), approved: z.array(approvedSender) }));

export class PairingError extends Error {}

/**
 * Who may DM the bot under `dmPolicy: pairing`: codes handed to unknown
 * senders (8 characters, 1 h, at most 3 pending per account) and the senders
 * the operator approved. Pairing adds contacts; a paired sender becomes the
 * account's owner only when the operator says so (`approve(code, {owner})`).
 */
export class PairingStore {
  #pending: PendingPairing[];
  #approved: ApprovedSender[];

  constructor(
    private readonly file: string,
    private readonly clock: Pick<Clock, 'now'>,
  ) {
    const loaded = readPairings(file);
    this.#pending = loaded.pending;
    this.#approved = loaded.approved;
  }

  isApproved(channel: string, accountId: string, senderId: string): boolean {
    return this.#approved.some((a) => a.channel === channel && a.accountId === accountId && a.senderId === senderId);
  }

  owner(channel: string, accountId: string): ApprovedSender | undefined {
    return this.#approved.find((a) => a.channel === channel && a.accountId === accountId && a.owner);
  }

  approved(): ApprovedSender[] {
    return [...this.#approved];
  }

  pending(): PendingPairing[] {
    this.#expire();
    return [...this.#pending];
  }

  /**
   * The code for an unknown sender: the one they already have, a new one, or
   * undefined when the account already has the maximum pending (the sender
   * is then ignored until one is answered or expires).
   */
  request(input: Omit<PendingPairing, 'code' | 'createdAt' | 'expiresAt'>): { code: string; created: boolean } | undefined {
    this.#expire();
    const existing = this.#pending.find((p) => p.channel === input.channel && p.accountId === input.accountId && p.senderId === input.senderId);
    if (existing) return { code: existing.code, created: false };
    if (this.#pending.filter((p) => p.channel === input.channel && p.accountId === input.accountId).length >= MAX_PENDING_PAIRINGS) return undefined;
    let code = '';
    do code = Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    while (this.#pending.some((p) => p.code === code));
    const createdAt = this.clock.now();
    this.#pending.push({ ...input, code, createdAt, expiresAt: createdAt + PAIRING_CODE_TTL_MS });
    this.#persist();
    return { code, created: true };
  }

  /** Approves a code; with `owner`, the sender replaces the account's paired owner (returned as `replaced`). */
  approve(code: string, options: { owner?: boolean } = {}): { approved: ApprovedSender; replaced?: ApprovedSender } {
    const pending = this.#take(code);
    const owner = options.owner === true;
    const replaced = owner ? this.owner(pending.channel, pending.accountId) : undefined;
    if (replaced) {
      replaced.owner = false;
      delete replaced.ownerSince;
    }
    const { code: _code, createdAt: _c, expiresAt: _e, ...sender } = pending;
    const now = this.clock.now();
    const approved: ApprovedSender = { ...sender, approvedAt: now, owner, ...(owner ? { ownerSince: now } : {}) };
    this.#approved.push(approved);
    this.#persist();
    return { approved, ...(replaced ? { replaced } : {}) };
  }

  deny(code: string): PendingPairing {
    const pending = this.#take(code);
    this.#persist();
    return pending;
  }

  #take(code: string): PendingPairing {
    this.#expire();
    const wanted = code.trim().toUpperCase();
    const index = this.#pending.findIndex((p) => p.code === wanted);
    if (index < 0) {
      const known = this.#pending.map((p) => p.code);
      throw new PairingError(
        `No pending pairing code "${wanted}"${known.length > 0 ? `; pending: ${known.join(', ')}` : ' (none pending)'}. Codes expire after 1 hour; \`claw pairing list\` shows them.`,
      );
    }
    const [pending] = this.#pending.splice(index, 1);
    return pending!;
  }

  #expire(): void {
    const now = this.clock.now();
    const before = this.#pending.length;
    this.#pending = this.#pending.filter((p) => p.expiresAt > now);
    if (this.#pending.length !== before) this.#persist();
  }

  #persist(): void {
    writeFileAtomicSync(this.file, `${JSON.stringify({ version: 1, pending: this.#pending, approved: this.#approved }, null, 1)}\n`, 0o600);
  }
}

function readPairings(file: string): { pending: PendingPairing[]; approved: ApprovedSender[] } {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { pending: [], approved: [] };
    throw error;
  }
  const parsed = fileShape.safeParse(JSON.parse(raw));
  if (!parsed.success) throw new Error(`${file} is not a valid pairing file. Move it aside to start over (approved senders must then pair again).`);
  return parsed.data;
}

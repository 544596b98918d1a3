import type { ApprovalRecord, ReplyRoute } from '../protocol/index.js';
import type { ApprovalInbox } from '../tools/index.js';
import type { ChannelOutbound } from './channel.js';

/** Where an owner is reached: the outbound half of their channel and their chat. */
export interface OwnerChat {
  outbound: ChannelOutbound;
  route: ReplyRoute;
  ownerId: string;
}

export interface ApprovalRelayOptions {
  inbox: ApprovalInbox;
  /** The owner to ask for a request of this session, when the session talks over a channel with one. */
  ownerFor(sessionKey: string): OwnerChat | undefined;
  warn(message: string): void;
}

const DECISIONS = { o: 'once', s: 'session', a: 'always', d: 'deny' } as const;
type DecisionCode = keyof typeof DECISIONS;
const PREFIX = 'ap:';

const DECIDED: Record<string, string> = {
  once: 'Approved once',
  session: 'Approved for this session',
  always: 'Approved always',
  deny: 'Denied',
};

/** A fence longer than any backtick run in the command, so the command is shown whole and exact. */
function fenced(command: string): string {
  const longest = Math.max(0, ...[...command.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}\n${command}\n${fence}`;
}

function describe(record: ApprovalRecord): string {
  return [`**Approval needed** (${record.kind}, ${record.sessionKey})`, fenced(record.command), `in ${record.cwd}`, record.reason].join('\n\n');
}

function outcome(record: ApprovalRecord): string {
  const what =
    record.status === 'expired' ? `Expired (${record.resolvedBy ?? 'timeout'})` : `${DECIDED[record.decision ?? 'deny']} by ${record.resolvedBy ?? 'someone'}`;
  return `${what}\n\n${fenced(record.command)}`;
}

/**
 * Exec approvals on the phone: a request for a channel session goes to that
 * channel's owner with Once / Session / Always / Deny buttons. The first
 * answer anywhere wins (the inbox decides); every message sent for it is
 * then edited to say who decided, and a later press is told so.
 */
export class ApprovalRelay {
  readonly #options: ApprovalRelayOptions;
  readonly #sent = new Map<string, { owner: OwnerChat; messageIds: string[] }>();
  readonly #stop: () => void;

  constructor(options: ApprovalRelayOptions) {
    this.#options = options;
    this.#stop = options.inbox.on((event, record) => {
      if (event === 'requested') void this.#ask(record);
      else void this.#settled(record);
    });
  }

  static isPress(data: string): boolean {
    return data.startsWith(PREFIX);
  }

  async #ask(record: ApprovalRecord): Promise<void> {
    const owner = this.#options.ownerFor(record.sessionKey);
    if (!owner) return;
    const buttons = [
      [
        { label: 'Once', data: `${PREFIX}${record.id}:o` },
        { label: 'Session', data: `${PREFIX}${record.id}:s` },
      ],
      [
        { label: 'Always', data: `${PREFIX}${record.id}:a` },
        { label: 'Deny', data: `${PREFIX}${record.id}:d` },
      ],
    ];
    const result = await owner.outbound.send(owner.route, { text: describe(record), buttons });
    if (!result.delivered) {
      this.#options.warn(`approval ${record.id} could not be sent to the owner: ${result.error}`);
      return;
    }
    this.#sent.set(record.id, { owner, messageIds: result.messageIds });
    const now = this.#options.inbox.get(record.id);
    if (now && now.status !== 'pending') await this.#settled(now);
  }

  async #settled(record: ApprovalRecord): Promise<void> {
    const sent = this.#sent.get(record.id);
    if (!sent) return;
    this.#sent.delete(record.id);
    const last = sent.messageIds[sent.messageIds.length - 1];
    if (!last) return;
    const result = await sent.owner.outbound.send(sent.owner.route, { text: outcome(record), edit: last });
    if (!result.delivered) this.#options.warn(`approval ${record.id}: the phone message was not updated: ${result.error}`);
  }

  /** A button press: only the owner's count; the toast says what happened. */
  press(data: string, from: { senderId: string; name: string; channel: string }, ownerId: string | undefined): string {
    const [id, code] = data.slice(PREFIX.length).split(':');
    const decision = DECISIONS[code as DecisionCode];
    if (!id || !decision) return 'This button is not an approval answer.';
    if (ownerId === undefined || from.senderId !== ownerId) return 'Only the owner can answer approvals.';
    const record = this.#options.inbox.get(id);
    if (!record) return 'This approval request is gone (the gateway no longer knows it).';
    if (record.status !== 'pending') return `Already decided by ${record.resolvedBy ?? 'someone'} (${record.status}).`;
    try {
      this.#options.inbox.resolve(id, decision, `${from.channel}:${from.name}`);
      return `${DECIDED[decision]}.`;
    } catch (error) {
      const after = this.#options.inbox.get(id);
      return after?.resolvedBy ? `Already decided by ${after.resolvedBy} (${after.status}).` : String((error as Error).message);
    }
  }

  close(): void {
    this.#stop();
    this.#sent.clear();
  }
}

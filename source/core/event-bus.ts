import { events, type EventName, type PayloadOf, type EventFrame } from '../protocol/index.js';

export interface BusRecord {
  seq: number;
  event: EventName;
  /** The frame serialised once, shared by every client that receives it. */
  text: string;
  /**
   * The `chat` frame that ends a reply (final, error, aborted): what a user
   * waits on, so it leaves at once instead of with the bookkeeping events
   * (context, usage, session) that the same moment emits after it.
   */
  endsReply: boolean;
}

type Listener = (record: BusRecord) => void;

/**
 * Gives every event a monotonically increasing seq, keeps a bounded ring of
 * recent frames for clients that resume with `sinceSeq`, and fans out.
 */
export class EventBus {
  private seqCounter = 0;
  private readonly ring: BusRecord[] = [];
  private readonly listeners = new Set<Listener>();
  private readonly undelivered: BusRecord[] = [];
  private delivering = false;
  private readonly validate = process.env.CLAW_VALIDATE_EVENTS === '1';

  constructor(private readonly ringSize: number) {}

  get seq(): number {
    return this.seqCounter;
  }

  emit<E extends EventName>(event: E, payload: PayloadOf<E>): void {
    if (this.validate) {
      const checked = events[event].payload.safeParse(payload);
      if (!checked.success) throw new Error(`event ${event} payload does not match its schema: ${checked.error.message}`);
    }
    this.seqCounter += 1;
    const frame: EventFrame = { type: 'event', event, payload, seq: this.seqCounter };
    const endsReply = event === 'chat' && (payload as PayloadOf<'chat'>).state !== 'delta';
    const record: BusRecord = { seq: this.seqCounter, event, text: JSON.stringify(frame), endsReply };
    if (this.ringSize > 0) {
      this.ring.push(record);
      if (this.ring.length > this.ringSize) this.ring.splice(0, this.ring.length - this.ringSize);
    }
    this.undelivered.push(record);
    // An emit from inside a listener (a client dropped mid-fan-out emits
    // presence) waits for the current event, so clients see seqs in order.
    if (this.delivering) return;
    this.delivering = true;
    try {
      for (let next = this.undelivered.shift(); next; next = this.undelivered.shift()) {
        for (const listener of this.listeners) listener(next);
      }
    } finally {
      this.delivering = false;
    }
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Events after `sinceSeq`, or undefined when some of them are no longer kept. */
  since(sinceSeq: number): BusRecord[] | undefined {
    if (sinceSeq > this.seqCounter) return undefined;
    if (sinceSeq === this.seqCounter) return [];
    const oldest = this.ring[0];
    if (!oldest || oldest.seq > sinceSeq + 1) return undefined;
    return this.ring.slice(sinceSeq + 1 - oldest.seq);
  }
}

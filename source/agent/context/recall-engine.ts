import { estimateMessageTokens, type WireApi } from '../../providers/index.js';
import { ContextWindow } from '../compaction/context-window.js';
import type { CompactionResult } from '../compaction/compact.js';
import type { HistoryMessage } from '../turn-types.js';
import { accountContext, contextEventPayload, type ContextAccount } from './accounting.js';
import { compactionHistory, isSummaryMessage, uncompactedMessages } from './assembly.js';
import type { ContextEngine, ContextEngineInfo, ContextEngineOptions } from './engine.js';
import { contextThresholds } from './thresholds.js';

/** `context.recall`: how much of the window older exchanges may take. */
export interface RecallSettings {
  share: number;
  maxExchanges: number;
}

const RECALL_PREFIX = '[Earlier in this conversation: exchanges recalled because they match the current message]\n';

/** One user message and everything that answered it, with its place in the conversation. */
interface Exchange {
  turn: number;
  messages: HistoryMessage[];
  terms: Set<string>;
  tokens: number;
}

/** What the last assembly pulled in, for `/context list`. */
interface Recalled {
  tail: number;
  turns: Array<{ turn: number; matched: string[] }>;
  older: number;
}

const LONGEST_RECALLED_PART = 600;

function textOf(message: HistoryMessage): string {
  if (message.role === 'user') return message.content;
  if (message.role === 'toolResult') return message.content;
  return message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}

/** Words too common to say two exchanges are about the same thing. */
const STOPWORDS = new Set(
  'the and for are was were you your with that this from have has had not but can could would should will what when where which who why how all any about into than then them they there these those its our out just also some does did done been being very more most other such only same over after before again once here both each few own'.split(
    ' ',
  ),
);

/** Words for matching: lower-case runs of letters and digits (3+, common words left out), each CJK character on its own. */
function terms(text: string): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[\p{L}\p{N}_./:-]{3,}/gu)) {
    if (!STOPWORDS.has(match[0])) out.push(match[0]);
  }
  return out;
}

/** Per message (transcript entries never change once written): its terms and tokens, worked out once per process. */
const perMessage = new WeakMap<HistoryMessage, { terms: string[]; tokens: number }>();

function measured(message: HistoryMessage, family: WireApi): { terms: string[]; tokens: number } {
  let found = perMessage.get(message);
  if (!found) {
    found = { terms: terms(textOf(message)), tokens: estimateMessageTokens(message, family) };
    perMessage.set(message, found);
  }
  return found;
}

function exchangesOf(messages: readonly HistoryMessage[], family: WireApi): Exchange[] {
  const out: Exchange[] = [];
  let turn = 0;
  for (const message of messages) {
    if (message.role === 'user' && !isSummaryMessage(message)) {
      turn += 1;
      out.push({ turn, messages: [message], terms: new Set(), tokens: 0 });
    } else out.at(-1)?.messages.push(message);
  }
  for (const exchange of out) {
    exchange.terms = new Set(exchange.messages.flatMap((message) => measured(message, family).terms));
    exchange.tokens = exchange.messages.reduce((total, message) => total + measured(message, family).tokens, 0);
  }
  return out;
}

function render(exchange: Exchange): string {
  const clip = (text: string) => (text.length > LONGEST_RECALLED_PART ? `${text.slice(0, LONGEST_RECALLED_PART)}…` : text);
  const lines = [`(turn ${exchange.turn}, ${new Date(exchange.messages[0]!.timestamp).toISOString().slice(0, 16).replace('T', ' ')})`];
  for (const message of exchange.messages) {
    const text = textOf(message).trim();
    if (!text) continue;
    if (message.role === 'user') lines.push(`User: ${clip(text)}`);
    else if (message.role === 'assistant') lines.push(`Assistant: ${clip(text)}`);
    else lines.push(`${message.toolName} returned: ${clip(text)}`);
  }
  return lines.join('\n');
}

/**
 * The `recall` engine: never summarises. The transcript stays whole on disk;
 * each model call sends the recent tail that fits, plus the older exchanges
 * that best match the current message (term overlap weighted by rarity), as
 * one note at the head. `/context list` names the turns it pulled in and why.
 */
export class RecallEngine implements ContextEngine {
  readonly info: ContextEngineInfo = { id: 'recall', ownsCompaction: true };
  readonly #options: ContextEngineOptions;
  readonly #settings: RecallSettings;
  /** Accounting, the tool-result guard and the report come from the default engine; only what is sent differs. */
  readonly #base: ContextWindow;
  #squeeze = 1;

  constructor(options: ContextEngineOptions, settings: RecallSettings) {
    this.#options = options;
    this.#settings = settings;
    this.#base = new ContextWindow(options);
  }

  get window(): number {
    return this.#base.window;
  }

  ingest(content: string, toolName: string): string {
    return this.#base.ingest(content, toolName);
  }

  /** What is sent: the tail that fits and the older exchanges that match the newest user message. */
  assemble(_messages: HistoryMessage[]): HistoryMessage[] {
    return this.#assembleNow().messages;
  }

  #assembleNow(): { messages: HistoryMessage[]; recalled: Recalled } {
    const family = this.#base.family;
    const all = uncompactedMessages(this.#options.session.entries());
    const thresholds = contextThresholds(this.window, this.#options.settings);
    const room = Math.max(0, (thresholds.compact - this.#base.fixedTokens()) * this.#squeeze);
    const recallRoom = Math.floor(Math.min(room / 2, this.window * this.#settings.share * this.#squeeze));
    const exchanges = exchangesOf(all, family);
    // The tail: whole exchanges from the newest back, as many as fit besides the recall room (the newest always).
    let tailStart = exchanges.length;
    let used = 0;
    for (let index = exchanges.length - 1; index >= 0; index -= 1) {
      const tokens = exchanges[index]!.tokens;
      if (index < exchanges.length - 1 && used + tokens > room - recallRoom) break;
      used += tokens;
      tailStart = index;
    }
    const lead = exchanges.length === 0 ? all : all.slice(0, all.indexOf(exchanges[0]!.messages[0]!));
    const tail = exchanges.slice(tailStart).flatMap((exchange) => exchange.messages);
    const older = exchanges.slice(0, tailStart);
    const query = new Set(terms(exchanges.at(-1)?.messages[0] ? textOf(exchanges.at(-1)!.messages[0]!) : ''));
    const picked = this.#pick(older, query, recallRoom);
    const recalled: Recalled = { tail: tail.length, turns: picked.map(({ exchange, matched }) => ({ turn: exchange.turn, matched })), older: older.length };
    if (picked.length === 0) return { messages: [...lead, ...tail], recalled };
    const first = tail[0] ?? all.at(-1)!;
    const note: HistoryMessage = {
      id: `recall-${first.id}`,
      parentId: null,
      timestamp: first.timestamp,
      type: 'message',
      role: 'user',
      content: `${RECALL_PREFIX}${picked
        .sort((a, b) => a.exchange.turn - b.exchange.turn)
        .map(({ exchange }) => render(exchange))
        .join('\n\n')}\n(${older.length - picked.length} other earlier exchanges are not shown; they stay in the transcript.)`,
      meta: { synthetic: 'recall' },
    };
    return { messages: [...lead, note, ...tail], recalled };
  }

  /** The best-matching older exchanges within `budget` tokens: each query term counts by how rare it is among them. */
  #pick(older: readonly Exchange[], query: ReadonlySet<string>, budget: number): Array<{ exchange: Exchange; matched: string[] }> {
    if (query.size === 0 || older.length === 0 || budget <= 0) return [];
    const bags = older.map((exchange) => exchange.terms);
    const rarity = new Map<string, number>();
    for (const term of query) {
      const having = bags.filter((bag) => bag.has(term)).length;
      if (having > 0) rarity.set(term, Math.log(1 + older.length / having));
    }
    const scored = older
      .map((exchange, index) => {
        const matched = [...rarity.keys()].filter((term) => bags[index]!.has(term));
        return { exchange, matched, score: matched.reduce((total, term) => total + rarity.get(term)!, 0) };
      })
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score || b.exchange.turn - a.exchange.turn);
    const out: Array<{ exchange: Exchange; matched: string[] }> = [];
    let spent = 0;
    for (const entry of scored) {
      if (out.length >= this.#settings.maxExchanges) break;
      const cost = Math.min(entry.exchange.tokens, Math.ceil(render(entry.exchange).length / 3));
      if (spent + cost > budget) continue;
      spent += cost;
      out.push({ exchange: entry.exchange, matched: entry.matched.slice(0, 5) });
    }
    return out;
  }

  async beforeModelCall(): Promise<void> {}

  /** After a context-length error: send less (the tail and the recall room halved), twice at most. */
  async recoverOverflow(): Promise<boolean> {
    if (this.#squeeze < 0.3) return false;
    this.#squeeze /= 2;
    return true;
  }

  async compact(): Promise<CompactionResult> {
    const account = await this.report();
    return {
      ok: false,
      reason:
        'the recall engine keeps the whole transcript and never summarises: each call sends the recent tail and the older turns that match. Switch the agent to contextEngine "default" to compact.',
      tokensBefore: account.used,
      attempts: 0,
      summariserCalls: 0,
    };
  }

  async afterTurn(): Promise<void> {
    await this.report();
  }

  async report(): Promise<ContextAccount> {
    const { messages, recalled } = this.#assembleNow();
    const options = this.#options;
    const account = accountContext({
      window: this.window,
      family: this.#base.family,
      systemPrompt: options.system,
      bootstrap: options.bootstrap,
      tools: options.tools,
      messages,
      // Provider usage measured earlier, differently assembled prompts: only the estimate describes this one.
      freshFrom: messages.length,
      settings: options.settings,
    });
    const pulled = recalled.turns.map((t) => `${t.turn} (${t.matched.join(', ')})`).join('; ');
    account.notes = [
      `recall         sends the last ${recalled.tail} messages${recalled.turns.length > 0 ? ` and recalls turns ${pulled}` : ''}; ${recalled.older} older exchanges stay in the transcript`,
    ];
    options.events.context?.(contextEventPayload(options.session.key, account, compactionHistory(options.session.entries())));
    return account;
  }
}

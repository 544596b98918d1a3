import { emptyEditor, type EditorState } from '../editor/editor.js';
import type {
  ApprovalRecord,
  BrowserTab,
  CompactionPreview,
  ChannelStatusInfo,
  PluginInfo,
  CooldownEntry,
  ContextPayload,
  LanesPayload,
  PresenceEntry,
  ScheduleOverview,
  SearchHit,
  SessionSummary,
  SetupStatus,
  SpendSummary,
  SubagentNode,
} from '../../protocol/index.js';
import type { SetupUi } from '../setup/setup-state.js';
import type { ElicitationFormUi, McpTuiState } from './elicitation.js';

/** `entryId` is the transcript entry an item came from, used to page older history. */
export type ChatItem = ChatItemBody & { entryId?: string };
type ChatItemBody =
  | { kind: 'user'; id: string; text: string; from?: string }
  | { kind: 'assistant'; id: string; text: string; model?: string }
  | { kind: 'tool'; id: string; name: string; args: string; output: string; status: 'running' | 'done' | 'error' }
  | { kind: 'compaction'; id: string; before: number; after?: number }
  | { kind: 'error'; id: string; message: string; hint?: string }
  | { kind: 'notice'; id: string; text: string }
  /** A slash command as the operator typed it, so its output reads as its answer. */
  | { kind: 'command'; id: string; text: string };

export interface ChatLog {
  /** A bounded window of the newest settled items; older ones are paged from sessions.history. */
  items: ChatItem[];
  /** True when the gateway holds entries older than items[0]. */
  hasMore: boolean;
  oldestEntryId?: string;
  /**
   * Present when transcript entries newer than the paged part of the window are
   * not in memory (it was cut while paging back): `after` is the id of the last
   * paged item, where the gap is; items after it arrived live. `before` holds,
   * nearest first, the entry ids that end each page to fetch on the way down;
   * past the last one the newest page closes the gap.
   */
  newer?: { after: string; before: string[] };
  /** The reply being streamed, kept apart so a delta never copies the item list. */
  streaming?: { runId: string; text: string };
  runId?: string;
  running: boolean;
}

export type PaneId = 'chat' | 'sessions' | 'lanes' | 'context' | 'subagents' | 'schedule';
export const SIDE_PANES: readonly PaneId[] = ['sessions', 'lanes', 'context', 'subagents', 'schedule'];

export type ConnState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface ApprovalNotice {
  approval: ApprovalRecord;
  at: number;
}

export interface TuiState {
  conn: { state: ConnState; latencyMs?: number; host?: string; version?: string; reason?: string; methods: readonly string[]; via?: string };
  agentId: string;
  currentKey: string;
  sessions: Readonly<Record<string, SessionSummary>>;
  unread: Readonly<Record<string, number>>;
  chats: Readonly<Record<string, ChatLog>>;
  lanes?: LanesPayload;
  context: Readonly<Record<string, ContextPayload>>;
  subagents: readonly SubagentNode[];
  /** Cron jobs (the soonest and the running ones), heartbeats and notices, from the snapshot and `schedule` events. */
  schedule?: ScheduleOverview;
  /** Chat channel accounts and their state, from the snapshot and `channels.status` (the header flags one in error). */
  channels?: readonly ChannelStatusInfo[];
  /** Installed plugins and their state, from the snapshot and `plugins.status` (the header flags one in error). */
  plugins?: readonly PluginInfo[];
  /** Keys and models failover is skipping, from the snapshot and `cooldowns` events (the footer shows them). */
  cooldowns?: readonly CooldownEntry[];
  /** Today's spend and the cap nearest its limit, from the snapshot and `spend` events (the footer's bar). */
  spend?: SpendSummary;
  /** `resolvedIds` guards against a list reply that was answered before a resolution event. */
  approvals: { pending: readonly ApprovalRecord[]; resolvedIds: readonly string[]; lastResolved?: ApprovalNotice };
  /** Model reported by the latest usage event per session, for the footer. */
  runModel: Readonly<Record<string, string>>;
  /** What the latest turn of each session has cost so far, from its `usage` events (the context pane shows it). */
  turnCost: Readonly<Record<string, { runId: string; usd: number; tokens: number; calls: number }>>;
  /** Automatic compactions waiting out their preview, by session (the strip above the input). */
  compactionPreviews: Readonly<Record<string, CompactionPreview>>;
  /** Each session's open browser tabs, from `browser.tabs` events (the context pane lists the current session's). */
  browserTabs: Readonly<Record<string, readonly BrowserTab[]>>;
  /** Connected clients by clientId, so approvers and senders show as a name and host. */
  clients: Readonly<Record<string, PresenceEntry>>;
  /** Per session: when the running turn started and the tool it is in, for the progress line. */
  progress: Readonly<Record<string, TurnProgress>>;
  /** The gateway reported no usable model, so the first screen says how to get one. */
  modelMissing: boolean;
  /** The gateway's `setup.status`: the default model, and a provider that failed its check. */
  setupStatus?: SetupStatus;
  /** The full-screen setup while it is open. */
  setup?: SetupUi;
  /** Server questions waiting for the operator and the resources `@` completes; absent until the gateway sends any. */
  mcp?: McpTuiState;
  /** The model a session would use with no override, as the gateway resolved it on connect. */
  defaultModel: Readonly<Record<string, string | undefined>>;
  /** The thinking level a session without its own uses (its agent's), by session key: the footer shows it. */
  defaultThinking: Readonly<Record<string, string>>;
  ui: UiState;
}

export interface TurnProgress {
  startedAt: number;
  tool?: string;
  /** The provider failed and the turn tries again at `until`. */
  retry?: { until: number; attempt: number; reason: string; model: string };
  /** The turn waits for an answer to its compaction preview (the strip above the input). */
  previewing?: boolean;
}

export interface SearchUi {
  query: string;
  /** True while the query is being typed (Ctrl+F); false once results are shown. */
  editing: boolean;
  status: 'idle' | 'loading' | 'done' | 'error';
  hits: readonly SearchHit[];
  index: number;
  error?: string;
  tookMs?: number;
}

export interface SessionPickerUi {
  filter: string;
  index: number;
}

export interface UiState {
  focus: PaneId;
  hidden: readonly PaneId[];
  zoom?: PaneId;
  /** Chat lines scrolled up from the bottom; 0 follows the stream. */
  scroll: number;
  toolsExpanded: boolean;
  /** The compaction preview shows its identifiers (r). */
  previewDetails?: boolean;
  /** Assistant replies shown as their Markdown source (Alt+M) instead of rendered. */
  rawMarkdown: boolean;
  sessionCursor: number;
  /** When the first Ctrl+C was pressed; a second one soon after exits. */
  ctrlCAt?: number;
  /** When Ctrl+X was pressed, waiting for Ctrl+E (edit the draft in $EDITOR). */
  ctrlXAt?: number;
  /** A list to choose from (/model): `filter` is what was typed to narrow it, `index` counts in the narrowed list. */
  picker?: {
    title: string;
    options: string[];
    descriptions?: Readonly<Record<string, string>>;
    current?: string;
    filter?: string;
    index: number;
    command: string;
  };
  /** Approval id whose "always" choice waits for a second confirmation. */
  confirmAlways?: string;
  /** Approvals left pending with Esc; the prompt skips them until /approvals. */
  dismissed: readonly string[];
  editor: EditorState;
  completionIndex: number;
  /** Side panes the operator opened with a key; they stay even when empty. */
  pinned: readonly PaneId[];
  /** The approval on screen and when it appeared: keys typed before or just after it go to the draft. */
  approvalShown?: { id: string; at: number };
  /** When the previous key arrived; a decision needs a pause after typing. */
  lastKeyAt?: number;
  /** Keys the approval guard sent to the draft instead of the prompt. */
  guardedKeys: number;
  search?: SearchUi;
  sessionPicker?: SessionPickerUi;
  /** A transcript entry to bring into view and highlight (a search jump). */
  anchor?: { key: string; entryId: string; query: string; pending: boolean };
  /** The highlighted row of the sub-agent pane. */
  subagentCursor?: number;
  /** A child's transcript opened read-only from the sub-agent pane; Esc returns to `returnTo`. */
  viewingChild?: { key: string; returnTo: string };
  /** The next submitted text steers this child instead of going to the chat. */
  steering?: { runId: string; label: string };
  /** The MCP server question being answered on screen. */
  elicitation?: ElicitationFormUi;
}

/** Items kept in memory per session; enough for several screens of scrollback. */
export const CHAT_WINDOW = 500;

export function emptyChat(): ChatLog {
  return { items: [], hasMore: false, running: false };
}

export function initialState(options: { agentId?: string; sessionKey?: string; via?: string } = {}): TuiState {
  const agentId = options.agentId ?? 'main';
  return {
    conn: { state: 'idle', methods: [], ...(options.via ? { via: options.via } : {}) },
    agentId,
    currentKey: options.sessionKey ?? `agent:${agentId}:main`,
    sessions: {},
    unread: {},
    chats: {},
    context: {},
    subagents: [],
    approvals: { pending: [], resolvedIds: [] },
    runModel: {},
    turnCost: {},
    browserTabs: {},
    compactionPreviews: {},
    clients: {},
    progress: {},
    modelMissing: false,
    defaultModel: {},
    defaultThinking: {},
    ui: {
      focus: 'chat',
      hidden: [],
      pinned: [],
      scroll: 0,
      toolsExpanded: false,
      rawMarkdown: false,
      sessionCursor: 0,
      dismissed: [],
      editor: emptyEditor(),
      completionIndex: 0,
      guardedKeys: 0,
    },
  };
}

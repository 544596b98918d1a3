// The claw plugin API, version 1 (source/plugins/README.md). Import it as
// `import type { ClawPlugin } from 'claw/plugin'`; nothing needs importing at
// run time: a plugin's default export is a plain object.

export type ToolEffect = 'read' | 'write' | 'net' | 'exec' | 'message';

export interface ToolHelpers {
  /** Aborted when the turn is stopped or the call times out. */
  signal: AbortSignal;
  /** Streams a line of progress to clients while the tool runs. */
  progress(text: string): void;
  log: PluginLog;
}

export interface PluginTool<A = Record<string, unknown>> {
  /** Declared in claw.plugin.json `contributes.tools`; the model sees `<pluginId>__<name>`. */
  name: string;
  description: string;
  /** A JSON Schema object for the arguments; the registry validates calls against it. */
  inputSchema?: Record<string, unknown>;
  /** What the tool does beyond reading: anything but `read` asks the owner when someone else asked for the turn. */
  effect?: ToolEffect;
  /** A string, `{ content, isError }`, or anything JSON (sent as JSON text). */
  run(args: A, helpers: ToolHelpers): unknown;
}

export interface PluginCommand {
  /** Declared in `contributes.commands`; runs as `/name args` in every chat and the CLI. A built-in of the same name wins. */
  name: string;
  description: string;
  /** `reply` may be called several times; a returned string is appended. */
  run(args: string, reply: (text: string) => void): unknown;
}

export type HookEvent =
  | 'gateway:startup'
  | 'gateway:shutdown'
  | 'command:new'
  | 'command:reset'
  | 'command:stop'
  | 'session:compact:before'
  | 'session:compact:after'
  | 'agent:bootstrap'
  | 'message:received'
  | 'message:sent'
  | 'turn:start'
  | 'turn:end'
  | 'tool:before'
  | 'tool:after';

/** `{ block: true, reason }` stops `tool:before` and `message:received`; `{ bootstrap }` adds text at `agent:bootstrap`. */
export type HookAnswer = undefined | { block?: boolean; reason?: string; bootstrap?: string };

export type ProviderDelta =
  | { type: 'text'; text: string }
  | { type: 'thinking'; text: string }
  | { type: 'tool_call'; id?: string; name: string; arguments: Record<string, unknown> }
  | { type: 'usage'; input: number; output: number };

export interface ProviderRequest {
  /** The model id after `<providerId>/`. */
  model: string;
  system: string;
  messages: unknown[];
  tools: Array<{ name: string; description: string; parameters: Record<string, unknown> }>;
  thinking: 'off' | 'minimal' | 'low' | 'medium' | 'high';
  maxOutputTokens: number;
}

export type ProviderErrorKind = 'auth' | 'rate_limit' | 'overloaded' | 'billing' | 'context_length' | 'bad_request' | 'server' | 'network';

export interface PluginProvider {
  /** Declared in `contributes.providers`; models are used as `<id>/<model>`. */
  id: string;
  models():
    | Array<string | { id: string; contextWindow?: number; maxOutput?: number }>
    | Promise<Array<string | { id: string; contextWindow?: number; maxOutput?: number }>>;
  stream(request: ProviderRequest, options: { signal: AbortSignal }): AsyncIterable<ProviderDelta>;
  /** claw keeps retries, failover and cooldowns; the plugin only says what kind of failure it was. */
  classifyError?(error: unknown): ProviderErrorKind;
}

export interface PluginLog {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface PluginContext {
  tools: { register(tool: PluginTool): void };
  commands: { register(command: PluginCommand): void };
  hooks: { on(event: HookEvent, handler: (payload: Record<string, unknown>) => HookAnswer | Promise<HookAnswer>): void };
  providers: { register(provider: PluginProvider): void };
  /** Not available in this version of claw: registering one fails. */
  channels: { register(adapter: { id: string }): void };
  /** `plugins.entries.<id>.config`, checked against `configSchema`; replaced live when claw.json changes. */
  readonly config: Record<string, unknown>;
  /** Only names declared in `permissions.secrets` (stored with `claw plugins secret set`, else the gateway's environment); their values are redacted from everything the plugin returns. */
  secrets: { get(name: string): string | undefined };
  /** A small key-value store of the plugin's own (JSON values, 1 MB in all). */
  storage: {
    get(key: string): Promise<unknown>;
    set(key: string, value: unknown): Promise<void>;
    delete(key: string): Promise<void>;
    keys(): Promise<string[]>;
  };
  /** The global `fetch` is this too: requests go through claw, only to `permissions.net` hosts. */
  fetch: typeof fetch;
  log: PluginLog;
}

export interface ClawPlugin {
  /** The manifest's id. */
  id: string;
  /** Register everything here; may return a function claw calls before stopping the plugin. */
  setup(ctx: PluginContext): void | (() => void | Promise<void>) | Promise<void | (() => void | Promise<void>)>;
}

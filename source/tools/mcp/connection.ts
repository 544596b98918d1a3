import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { CLAW_VERSION, type ClawConfig } from '../../config/index.js';

export type McpServerConfig = ClawConfig['mcpServers'][string];

interface McpSdk {
  Client: typeof import('@modelcontextprotocol/sdk/client/index.js').Client;
  StdioClientTransport: typeof import('@modelcontextprotocol/sdk/client/stdio.js').StdioClientTransport;
  StreamableHTTPClientTransport: typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPClientTransport;
  types: typeof import('@modelcontextprotocol/sdk/types.js');
}

let sdk: McpSdk | undefined;

/**
 * The SDK takes ~0.4 s to load and most gateways configure no MCP server, so
 * it is loaded by the first connection instead of at gateway start.
 */
async function loadSdk(): Promise<McpSdk> {
  if (!sdk) {
    const [client, stdio, http, types] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/stdio.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
    sdk = { Client: client.Client, StdioClientTransport: stdio.StdioClientTransport, StreamableHTTPClientTransport: http.StreamableHTTPClientTransport, types };
  }
  return sdk;
}
export type McpServerState = 'connecting' | 'ready' | 'error' | 'disabled';

export interface McpServerStatus {
  name: string;
  transport: 'stdio' | 'http';
  /** The command line or URL, for people reading `claw mcp list`. */
  target: string;
  trust: 'ask' | 'allow';
  state: McpServerState;
  toolCount: number;
  /** Names as registered (`mcp__<server>__<tool>`). */
  tools: string[];
  lastError?: string;
  lastErrorAt?: number;
  connectedAt?: number;
  nextRetryAt?: number;
}

export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
}

export interface ConnectionHooks {
  backoff: BackoffOptions;
  /** How long connecting (spawn + initialize + first tools/list) may take. */
  connectTimeoutMs: number;
  now(): number;
  /** The tool list changed (connected, refreshed after list_changed). */
  onTools(tools: Tool[]): void;
  onState(): void;
}

const STDERR_TAIL_CHARS = 2000;

export class McpCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpCallError';
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * One configured MCP server: keeps a client connected, reconnecting with
 * exponential backoff whenever the connection is lost, and knows its tools.
 */
export class McpConnection {
  state: McpServerState = 'connecting';
  tools: Tool[] = [];
  lastError: string | undefined;
  lastErrorAt: number | undefined;
  connectedAt: number | undefined;
  nextRetryAt: number | undefined;
  #client: Client | undefined;
  #attempt = 0;
  #retryTimer: NodeJS.Timeout | undefined;
  #closed = false;
  #probing = false;
  #stderrTail = '';
  readonly #failed = new WeakSet<Client>();

  constructor(readonly name: string, readonly config: McpServerConfig, private readonly hooks: ConnectionHooks) {}

  get transportKind(): 'stdio' | 'http' {
    return 'url' in this.config ? 'http' : 'stdio';
  }

  get target(): string {
    return 'url' in this.config ? this.config.url : [this.config.command, ...this.config.args].join(' ');
  }

  start(): void {
    if (!this.config.enabled) {
      this.#setState('disabled');
      return;
    }
    void this.#connect();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    const client = this.#client;
    this.#client = undefined;
    await client?.close().catch(() => {});
  }

  async call(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    const client = this.#client;
    if (!client || this.state !== 'ready') {
      const why = this.lastError ? `: ${this.lastError}` : '';
      throw new McpCallError(`MCP server "${this.name}" is not connected (${this.state}${why}). claw reconnects it automatically; try again shortly.`);
    }
    // The SDK never removes its abort listener; a per-call signal keeps a turn's long-lived one clean.
    const perCall = new AbortController();
    const forward = () => perCall.abort(signal?.reason);
    signal?.addEventListener('abort', forward, { once: true });
    if (signal?.aborted) forward();
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: this.config.timeoutMs, signal: perCall.signal });
      return result as CallToolResult;
    } catch (error) {
      if (signal?.aborted) throw new McpCallError(`The call to "${tool}" on MCP server "${this.name}" was cancelled.`);
      throw this.#describeCallFailure(error, client, tool);
    } finally {
      signal?.removeEventListener('abort', forward);
    }
  }

  #describeCallFailure(error: unknown, client: Client, tool: string): McpCallError {
    // A call only happens on a connected client, so the SDK is loaded.
    const { ErrorCode, McpError } = sdk!.types;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return new McpCallError(`MCP tool "${tool}" on server "${this.name}" did not answer within ${this.config.timeoutMs} ms (mcpServers.${this.name}.timeoutMs) and was abandoned.`);
    }
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      return new McpCallError(`MCP server "${this.name}" went away during the call${this.#stderrNote()}. claw reconnects it automatically; try again shortly.`);
    }
    if (error instanceof McpError) return new McpCallError(`MCP server "${this.name}" refused the call: ${error.message}`);
    if (this.#client === client) this.#probe(client);
    return new McpCallError(`MCP server "${this.name}" could not be reached during the call (${message(error)}). claw reconnects it automatically; try again shortly.`);
  }

  #stderrNote(): string {
    const line = this.#stderrTail.trim().split('\n').at(-1);
    return line ? ` (its last stderr line: "${line}")` : '';
  }

  #setState(state: McpServerState): void {
    this.state = state;
    this.hooks.onState();
  }

  #makeTransport({ StdioClientTransport, StreamableHTTPClientTransport }: McpSdk): Transport {
    const config = this.config;
    if ('url' in config) {
      return new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { headers: config.headers },
        // One quick retry of the event stream; a dead server is found by the probe and reconnected from scratch.
        reconnectionOptions: { initialReconnectionDelay: 500, maxReconnectionDelay: 2000, reconnectionDelayGrowFactor: 2, maxRetries: 1 },
      });
    }
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      // The SDK adds only a safe base (PATH, HOME, …) so provider keys in our environment never leak to a server.
      env: config.env,
      ...(config.cwd ? { cwd: config.cwd } : {}),
      stderr: 'pipe',
    });
    // Kept so a crash can be explained; also drains the pipe so a chatty server never blocks.
    transport.stderr?.on('data', (chunk: Buffer) => {
      this.#stderrTail = (this.#stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    return transport;
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    this.nextRetryAt = undefined;
    this.#stderrTail = '';
    this.#setState('connecting');
    const loaded = await loadSdk();
    if (this.#closed) return;
    const { Client } = loaded;
    const { ToolListChangedNotificationSchema } = loaded.types;
    const client = new Client({ name: 'claw', version: CLAW_VERSION }, { capabilities: {} });
    client.onclose = () => {
      if (this.#client === client) this.#lost(new Error(`the connection closed${this.#stderrNote()}`), client);
    };
    client.onerror = () => {
      if (this.#client === client) this.#probe(client);
    };
    try {
      await client.connect(this.#makeTransport(loaded), { timeout: this.hooks.connectTimeoutMs });
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        if (this.#client === client) void this.#refresh(client).catch((error: unknown) => this.#lost(error, client));
      });
      this.#client = client;
      await this.#refresh(client);
    } catch (error) {
      this.#lost(error, client);
      return;
    }
    if (this.#closed) {
      await this.close();
      return;
    }
    this.#attempt = 0;
    this.connectedAt = this.hooks.now();
    this.#setState('ready');
  }

  async #refresh(client: Client): Promise<void> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.hooks.connectTimeoutMs });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    if (this.#client !== client) return;
    this.tools = tools;
    this.hooks.onTools(tools);
  }

  /** A transport hiccup: ask the server whether it is still there; if not, start over. */
  #probe(client: Client): void {
    if (this.#probing) return;
    this.#probing = true;
    client
      .ping({ timeout: Math.min(5000, this.hooks.connectTimeoutMs) })
      .catch((error: unknown) => {
        if (this.#client === client) this.#lost(new Error(`it stopped answering (${message(error)})`), client);
      })
      .finally(() => {
        this.#probing = false;
      });
  }

  /** `client` failed; a failure of a client that was already replaced is ignored. */
  #lost(error: unknown, client: Client): void {
    if (this.#closed || this.#failed.has(client) || (this.#client !== undefined && this.#client !== client)) return;
    this.#failed.add(client);
    this.#client = undefined;
    void client.close().catch(() => {});
    const text = message(error);
    this.lastError = /ENOENT/.test(text) && 'command' in this.config ? `could not start "${this.config.command}" (not found): check the command and PATH` : text;
    this.lastErrorAt = this.hooks.now();
    const delay = Math.min(this.hooks.backoff.maxMs, this.hooks.backoff.initialMs * 2 ** this.#attempt);
    this.#attempt += 1;
    this.nextRetryAt = this.hooks.now() + delay;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => void this.#connect(), delay);
    this.#setState('error');
  }

  status(tools: string[]): McpServerStatus {
    const status: McpServerStatus = {
      name: this.name,
      transport: this.transportKind,
      target: this.target,
      trust: this.config.trust,
      state: this.state,
      toolCount: tools.length,
      tools,
    };
    if (this.lastError !== undefined) status.lastError = this.lastError;
    if (this.lastErrorAt !== undefined) status.lastErrorAt = this.lastErrorAt;
    if (this.connectedAt !== undefined) status.connectedAt = this.connectedAt;
    if (this.state === 'error' && this.nextRetryAt !== undefined) status.nextRetryAt = this.nextRetryAt;
    return status;
  }
}

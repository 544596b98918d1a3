import { API_LIMITS, MAX_TOOLS_EVERYWHERE } from '../../providers/index.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, CompleteResult, GetPromptResult, Progress, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { CLAW_VERSION, type ClawConfig } from '../../config/index.js';
import { emptyCatalog, listPrompts, listResources, listTools, readCatalog, type CatalogPart, type McpCatalog } from './catalog.js';
import { clientCapabilities, installClientRequestHandlers, type ClientRequestHandlers } from './client-requests.js';
import { loadSdk, loadedSdk, type McpSdk } from './sdk.js';
import { StderrLog } from './stderr-log.js';
import { GroupStdioTransport } from './stdio-transport.js';
import { McpOAuth, type McpAuthHooks } from './oauth.js';
import { resolveServerConfig } from './server-inputs.js';

export type McpServerConfig = ClawConfig['mcpServers'][string];
export type McpServerState = 'connecting' | 'ready' | 'error' | 'disabled' | 'needs-login';

export interface McpServerStatus {
  name: string;
  transport: 'stdio' | 'http' | 'sse';
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
  lastStderr?: string;
  skippedTools?: Array<{ name: string; reason: string }>;
  warnings?: string[];
  promptCount?: number;
  resourceCount?: number;
  resourceTemplateCount?: number;
  /** While a login is pending: the authorization URL to open. */
  authUrl?: string;
}

export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
}

export interface ConnectionHooks extends ClientRequestHandlers {
  backoff: BackoffOptions;
  /** How long connecting (spawn + initialize + first listings) may take. */
  connectTimeoutMs: number;
  now(): number;
  /** A part of the catalog changed (connected, or refreshed after list_changed). */
  onCatalog(part: CatalogPart | 'all'): void;
  onState(): void;
  /** OAuth for remote servers (token storage, the owner told to log in); absent: no authorization is attempted. */
  auth?: McpAuthHooks;
  /** Where the values of `${input:ID}` are kept (credentials/mcp-inputs.json). */
  inputsFile?: string;
}

/** A remote transport, which finishes an authorization with the code the redirect brought. */
type LoginTransport = Transport & { finishAuth(code: string): Promise<void> };

export class McpCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpCallError';
  }
}

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?(progress: Progress): void;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * One configured MCP server: keeps a client connected, reconnecting with
 * exponential backoff whenever the connection is lost, and knows what the
 * server offers (tools, prompts, resources).
 */
export class McpConnection {
  state: McpServerState = 'connecting';
  catalog: McpCatalog = emptyCatalog();
  lastError: string | undefined;
  lastErrorAt: number | undefined;
  connectedAt: number | undefined;
  nextRetryAt: number | undefined;
  readonly stderr: StderrLog;
  /** How long the last successful connect took: spawn/handshake, then the first listings. */
  timings: { initializeMs: number; listMs: number } | undefined;
  #client: Client | undefined;
  #transport: Transport | undefined;
  #oauth: McpOAuth | undefined;
  #attempt = 0;
  #retryTimer: NodeJS.Timeout | undefined;
  #closed = false;
  #probing = false;
  readonly #failed = new WeakSet<Client>();
  /** Closes of lost clients still ending their processes. */
  readonly #closing = new Set<Promise<void>>();

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly hooks: ConnectionHooks,
  ) {
    this.stderr = new StderrLog(hooks);
  }

  get transportKind(): 'stdio' | 'http' | 'sse' {
    return this.config.type;
  }

  get target(): string {
    if (this.config.refused !== undefined) return '(refused)';
    return 'url' in this.config ? this.config.url : [this.config.command, ...this.config.args].join(' ');
  }

  get ready(): boolean {
    return this.state === 'ready' && this.#client !== undefined;
  }

  start(): void {
    if (this.config.refused !== undefined) {
      // Not a server claw can start: said where servers are listed, never retried until claw.json changes.
      this.lastError = `its entry in claw.json is not an MCP server claw can start (${this.config.refused}); fix mcpServers.${this.name}`;
      this.lastErrorAt = this.hooks.now();
      this.#setState('error');
      return;
    }
    if (!this.config.enabled) {
      this.#setState('disabled');
      return;
    }
    void this.#connect();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    this.#oauth?.close();
    const client = this.#client;
    const transport = this.#transport;
    this.#client = undefined;
    this.#transport = undefined;
    await client?.close().catch(() => {});
    // A connect still in flight has a transport but no client yet.
    if (!client) await transport?.close().catch(() => {});
    await Promise.all(this.#closing);
  }

  /** Why a call cannot be made right now, said so that the model and the operator know it is temporary. */
  notReadyReason(): string {
    const why = this.lastError ? `: ${this.lastError}` : '';
    const state = this.state === 'disabled' ? 'disabled in claw.json' : this.state === 'error' ? `reconnecting after an error${why}` : 'still connecting';
    return `MCP server "${this.name}" is not connected (${state}). claw reconnects it automatically; try again shortly.`;
  }

  #live(): Client {
    const client = this.#client;
    if (!client || this.state !== 'ready') throw new McpCallError(this.notReadyReason());
    return client;
  }

  async call(tool: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CallToolResult> {
    const client = this.#live();
    const { signal } = options;
    // The SDK never removes its abort listener; a per-call signal keeps a turn's long-lived one clean.
    const perCall = new AbortController();
    const forward = () => perCall.abort(signal?.reason);
    signal?.addEventListener('abort', forward, { once: true });
    if (signal?.aborted) forward();
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, {
        timeout: this.config.timeoutMs,
        signal: perCall.signal,
        // Progress proves the server is working: the timeout restarts, up to the hard maximum.
        resetTimeoutOnProgress: true,
        maxTotalTimeout: Math.max(this.config.timeoutMs, this.config.maxTimeoutMs),
        ...(options.onProgress ? { onprogress: options.onProgress } : {}),
      });
      return result as CallToolResult;
    } catch (error) {
      if (signal?.aborted) throw new McpCallError(`The call to "${tool}" on MCP server "${this.name}" was cancelled.`);
      throw this.#describeFailure(error, client, `tool "${tool}"`);
    } finally {
      signal?.removeEventListener('abort', forward);
    }
  }

  async getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
    const client = this.#live();
    try {
      return await client.getPrompt({ name, arguments: args }, { timeout: this.config.timeoutMs });
    } catch (error) {
      throw this.#describeFailure(error, client, `prompt "${name}"`);
    }
  }

  async readResource(uri: string): Promise<ReadResourceResult> {
    const client = this.#live();
    try {
      return await client.readResource({ uri }, { timeout: this.config.timeoutMs });
    } catch (error) {
      throw this.#describeFailure(error, client, `resource "${uri}"`);
    }
  }

  /** Argument completion for a prompt (`ref/prompt`) or a resource template (`ref/resource`). */
  async complete(
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
    argument: { name: string; value: string },
    context?: Record<string, string>,
  ): Promise<CompleteResult['completion']> {
    const client = this.#live();
    if (!client.getServerCapabilities()?.completions) return { values: [] };
    try {
      const result = await client.complete({ ref, argument, ...(context ? { context: { arguments: context } } : {}) }, { timeout: this.config.timeoutMs });
      return result.completion;
    } catch (error) {
      throw this.#describeFailure(error, client, 'completion');
    }
  }

  /** One ping round trip, in milliseconds. */
  async pingMs(): Promise<number> {
    const client = this.#live();
    const started = performance.now();
    await client.ping({ timeout: this.hooks.connectTimeoutMs });
    return Math.round((performance.now() - started) * 100) / 100;
  }

  /** The roots changed (workspace or fsRoots): tell the server so it asks again. */
  notifyRootsChanged(): void {
    const client = this.#client;
    if (client && this.state === 'ready') void client.sendRootsListChanged().catch(() => {});
  }

  #describeFailure(error: unknown, client: Client, what: string): McpCallError {
    const { ErrorCode, McpError } = loadedSdk().types;
    // A token that expired for good, or a call that needs more scope (403 insufficient_scope): a person must log in again.
    if (this.#needsLogin(error) && this.#transport) {
      this.#awaitLogin(this.#transport as LoginTransport, client);
      return new McpCallError(`MCP server "${this.name}" needs a login for the ${what}: ${this.lastError}. Try again once it is done.`);
    }
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return new McpCallError(
        `MCP ${what} on server "${this.name}" did not answer within ${this.config.timeoutMs} ms (mcpServers.${this.name}.timeoutMs; ` +
          `progress notifications extend it up to maxTimeoutMs ${this.config.maxTimeoutMs} ms) and was abandoned.`,
      );
    }
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      return new McpCallError(`MCP server "${this.name}" went away during the call${this.#stderrNote()}. claw reconnects it automatically; try again shortly.`);
    }
    if (error instanceof McpError) return new McpCallError(`MCP server "${this.name}" refused the ${what}: ${error.message}`);
    if (this.#client === client) this.#probe(client);
    return new McpCallError(
      `MCP server "${this.name}" could not be reached during the call (${message(error)}). claw reconnects it automatically; try again shortly.`,
    );
  }

  #stderrNote(): string {
    const line = this.stderr.last();
    return line ? ` (its last stderr line: "${line}")` : '';
  }

  #setState(state: McpServerState): void {
    this.state = state;
    this.hooks.onState();
  }

  #makeTransport({ StreamableHTTPClientTransport, SSEClientTransport }: McpSdk, config: McpServerConfig): Transport {
    if ('url' in config) {
      const authProvider = this.#oauth ? { authProvider: this.#oauth, fetch: this.#oauth.fetch } : {};
      if (config.type === 'sse') return new SSEClientTransport(new URL(config.url), { requestInit: { headers: config.headers }, ...authProvider });
      return new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { headers: config.headers },
        ...authProvider,
        // One quick retry of the event stream; a dead server is found by the probe and reconnected from scratch.
        reconnectionOptions: { initialReconnectionDelay: 500, maxReconnectionDelay: 2000, reconnectionDelayGrowFactor: 2, maxRetries: 1 },
      });
    }
    this.stderr.mark(`starting ${this.target}`);
    return new GroupStdioTransport({
      command: config.command,
      args: config.args,
      // Only a safe base (PATH, HOME, …) is inherited so provider keys in our environment never leak to a server.
      env: config.env,
      ...(config.cwd ? { cwd: config.cwd } : {}),
      onStderr: (chunk) => this.stderr.write(chunk),
    });
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    this.nextRetryAt = undefined;
    this.#setState('connecting');
    const loaded = await loadSdk();
    if (this.#closed) return;
    const samplingAllowed = this.config.sampling;
    const client = new loaded.Client({ name: 'claw', version: CLAW_VERSION }, { capabilities: clientCapabilities(this.hooks, samplingAllowed) });
    installClientRequestHandlers(client, this.name, this.hooks, samplingAllowed);
    client.onclose = () => {
      // While connecting, the failed connect() explains the closing better (exit code, stderr).
      if (this.#client === client) this.#lost(new Error(`the connection closed${this.#exitNote()}${this.#stderrNote()}`), client);
    };
    client.onerror = () => {
      if (this.#client === client) this.#probe(client);
    };
    if ('url' in this.config && this.hooks.auth && !this.#oauth) {
      try {
        this.#oauth = await McpOAuth.open(this.name, this.config, this.hooks.auth);
      } catch (error) {
        this.#notStarted(new Error(`its OAuth settings cannot be used: ${message(error)}`));
        return;
      }
      if (this.#closed) return;
    }
    let settings: McpServerConfig;
    try {
      settings = resolveServerConfig(this.name, this.config, this.hooks.inputsFile);
    } catch (error) {
      this.#notStarted(error);
      return;
    }
    const transport = this.#makeTransport(loaded, settings);
    this.#transport = transport;
    try {
      const started = performance.now();
      await client.connect(transport, { timeout: this.hooks.connectTimeoutMs });
      const initialized = performance.now();
      this.#watchLists(client, loaded);
      this.#client = client;
      const catalog = await readCatalog(client, this.hooks.connectTimeoutMs);
      if (this.#client !== client) return;
      this.timings = { initializeMs: initialized - started, listMs: performance.now() - initialized };
      this.catalog = catalog;
      this.hooks.onCatalog('all');
    } catch (error) {
      if (this.#needsLogin(error)) {
        this.#awaitLogin(transport as LoginTransport, client);
        return;
      }
      this.#lost(this.#startupError(error, transport), client);
      return;
    }
    if (this.#closed) {
      await this.close();
      return;
    }
    this.#attempt = 0;
    this.#oauth?.connected();
    this.connectedAt = this.hooks.now();
    // The server works again: an old error would only mislead (`claw mcp logs` keeps the history).
    this.lastError = undefined;
    this.lastErrorAt = undefined;
    this.#setState('ready');
  }

  /**
   * The server wants a person to log in: nothing is retried until the
   * redirect brings a code (the owner was told the URL), then the code is
   * exchanged for tokens and the connection starts again.
   */
  #awaitLogin(transport: LoginTransport, client: Client): void {
    const oauth = this.#oauth!;
    // This client is done: no probe or reconnect of it may start another login while this one is pending.
    this.#failed.add(client);
    if (this.#client === client) this.#client = undefined;
    if (this.#transport === transport) this.#transport = undefined;
    clearTimeout(this.#retryTimer);
    void client.close().catch(() => {});
    this.lastError = `needs login: run \`claw mcp login ${this.name}\`, or open ${oauth.pendingUrl}`;
    this.lastErrorAt = this.hooks.now();
    this.#setState('needs-login');
    oauth.onCode((code) => {
      void transport.finishAuth(code).then(
        () => void this.#connect(),
        (error: unknown) => {
          oauth.abandonLogin();
          this.#lost(new Error(`the login was not accepted: ${message(error)}`), client);
        },
      );
    });
  }

  /** Finishes a pending login with the address the browser ended on (pasted from another machine). */
  finishLogin(callbackUrl: string): void {
    if (!this.#oauth?.pendingUrl) throw new McpCallError(`MCP server "${this.name}" has no login waiting; run \`claw mcp login ${this.name}\` first.`);
    this.#oauth.acceptCallback(new URL(callbackUrl));
  }

  /** An authorization the SDK started (a redirect is pending): a person must log in before anything is retried. */
  #needsLogin(error: unknown): boolean {
    return error instanceof loadedSdk().UnauthorizedError && this.#oauth?.pendingUrl !== undefined;
  }

  /** Forgets this server's tokens and starts again: the next connect asks for a login (`claw mcp login`). */
  async relogin(): Promise<string | undefined> {
    if (this.state === 'needs-login' && this.#oauth?.pendingUrl) return this.#oauth.pendingUrl;
    this.#oauth?.resetAttempts();
    this.#oauth?.invalidateCredentials('tokens');
    clearTimeout(this.#retryTimer);
    const client = this.#client;
    if (client) {
      this.#failed.add(client);
      this.#client = undefined;
      this.#transport = undefined;
      await client.close().catch(() => {});
    }
    await this.#connect();
    return this.#oauth?.pendingUrl;
  }

  /** The server could not even be started (an input not given, an unreadable envFile): said, and tried again later. */
  #notStarted(error: unknown): void {
    this.lastError = message(error);
    this.lastErrorAt = this.hooks.now();
    const delay = this.hooks.backoff.maxMs;
    this.nextRetryAt = this.hooks.now() + delay;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => void this.#connect(), delay);
    this.#setState('error');
  }

  /** A server that dies while starting is explained by how it exited and what it last said. */
  #startupError(error: unknown, transport: Transport): Error {
    const text = message(error);
    if (/ENOENT/.test(text) && 'command' in this.config) return new Error(`could not start "${this.config.command}" (not found): check the command and PATH`);
    const exit = transport instanceof GroupStdioTransport ? transport.exit : undefined;
    if (exit === undefined) return error instanceof Error ? error : new Error(text);
    // The process is gone: its last line counts even without a newline.
    this.stderr.flush();
    const line = this.stderr.last();
    return new Error(`the server ${exit} while starting${line ? `: "${line}"` : ' without writing to stderr'} (see \`claw mcp logs ${this.name}\`)`);
  }

  #exitNote(): string {
    const exit = this.#transport instanceof GroupStdioTransport ? this.#transport.exit : undefined;
    return exit ? ` (the server ${exit})` : '';
  }

  #watchLists(client: Client, { types }: McpSdk): void {
    const refresh = (part: CatalogPart) => {
      if (this.#client !== client) return;
      void this.#refresh(client, part).catch((error: unknown) => this.#lost(error, client));
    };
    client.setNotificationHandler(types.ToolListChangedNotificationSchema, () => refresh('tools'));
    client.setNotificationHandler(types.PromptListChangedNotificationSchema, () => refresh('prompts'));
    client.setNotificationHandler(types.ResourceListChangedNotificationSchema, () => refresh('resources'));
  }

  async #refresh(client: Client, part: CatalogPart): Promise<void> {
    const timeout = this.hooks.connectTimeoutMs;
    const update: Partial<McpCatalog> =
      part === 'tools'
        ? await listTools(client, timeout)
        : part === 'prompts'
          ? { prompts: await listPrompts(client, timeout) }
          : await listResources(client, timeout);
    if (this.#client !== client) return;
    this.catalog = { ...this.catalog, ...update };
    this.hooks.onCatalog(part);
  }

  /** A transport hiccup: ask the server whether it is still there; if not, start over. */
  #probe(client: Client): void {
    if (this.#probing) return;
    this.#probing = true;
    client
      .ping({ timeout: Math.min(5000, this.hooks.connectTimeoutMs) })
      .catch((error: unknown) => {
        if (this.#client !== client) return;
        if (this.#needsLogin(error)) this.#awaitLogin(this.#transport as LoginTransport, client);
        else this.#lost(new Error(`it stopped answering (${message(error)})`), client);
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
    this.#transport = undefined;
    // Closing ends the server's process group; close() waits for it, so no server outlives the gateway.
    const closing = client.close().catch(() => {});
    this.#closing.add(closing);
    void closing.finally(() => this.#closing.delete(closing));
    this.lastError = message(error);
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
    const stderr = this.stderr.last();
    if (stderr !== undefined) status.lastStderr = stderr;
    if (this.catalog.skipped.length > 0) status.skippedTools = this.catalog.skipped;
    const warnings = [...this.catalog.warnings];
    // A server that may never wait behind tool_search cannot be sent whole past the strictest API's count.
    if (this.config.defer === 'never' && tools.length > MAX_TOOLS_EVERYWHERE)
      warnings.push(
        `${tools.length} tools with defer: "never", but ${API_LIMITS.openai.label} takes ${API_LIMITS.openai.maxTools} per request: the last ones are not sent to such a model (set defer: "auto")`,
      );
    if (warnings.length > 0) status.warnings = warnings;
    if (this.state === 'ready') {
      status.promptCount = this.catalog.prompts.length;
      status.resourceCount = this.catalog.resources.length;
      status.resourceTemplateCount = this.catalog.templates.length;
    }
    if (this.state === 'needs-login' && this.#oauth?.pendingUrl) status.authUrl = this.#oauth.pendingUrl;
    return status;
  }
}

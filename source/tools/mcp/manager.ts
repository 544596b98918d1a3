import { systemClock, type Clock } from '../../config/index.js';
import type { Root } from '@modelcontextprotocol/sdk/types.js';
import type { ToolRegistry } from '../registry.js';
import { McpApprovalMemory } from './approval-rules.js';
import type { CatalogPart } from './catalog.js';
import type { ClientRequestHandlers } from './client-requests.js';
import { McpCallError, McpConnection, type BackoffOptions, type McpServerConfig, type McpServerStatus } from './connection.js';
import { forgetMcpCredentials, type McpAuthHooks } from './oauth.js';
import { mcpToolDefinition } from './mcp-tool.js';
import { mcpToolName } from './names.js';
import { promptCommands, promptMessages, type McpPromptCommand, type McpPromptMessage } from './prompts.js';
import { RESOURCE_TOOL_NAME, resourceText, resourceToolDefinition } from './resource-tool.js';
import type { StderrLine } from './stderr-log.js';

export interface McpChange {
  server: string;
  /** `state`: connected, failed, reconnecting; the others: that list changed. */
  part: CatalogPart | 'state';
}

export interface McpManagerOptions extends Partial<Pick<ClientRequestHandlers, 'elicit' | 'sample'>> {
  /** Where the servers' tools are registered (and unregistered when they go away). */
  registry: ToolRegistry;
  backoff?: BackoffOptions;
  connectTimeoutMs?: number;
  clock?: Pick<Clock, 'now'>;
  /** mcp-approvals.json: MCP tools allowed with "always" (read at start). */
  approvalsFile?: string;
  /** Folders offered to servers as roots (absolute paths). */
  roots?: () => string[];
  /** Called after any server changes state, tools, prompts or resources. */
  onChange?: (change: McpChange) => void;
  /** OAuth for remote servers: where tokens live and how the owner is told to log in. */
  auth?: McpAuthHooks;
  /** Where the values of `${input:ID}` are kept. */
  inputsFile?: string;
}

export interface McpResourceEntry {
  server: string;
  uri: string;
  name: string;
  title?: string;
  mimeType?: string;
  description?: string;
}

export interface McpResourceTemplateEntry {
  server: string;
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
}

const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 1000, maxMs: 60_000 };

function rootsOf(paths: string[]): Root[] {
  return [...new Set(paths)].map((path) => ({ uri: new URL(`file://${path}`).href, name: path }));
}

/**
 * Runs every server in `mcpServers`: connects them in parallel without
 * holding anyone up, keeps their tools in the registry as
 * `mcp__<server>__<tool>` (plus one `mcp_resource` tool while any server has
 * resources), refreshes on list_changed, reconnects after failures. Last
 * known tools stay registered while a server reconnects, so a call then gets
 * a clear "not connected" result instead of vanishing.
 */
export class McpManager {
  readonly #connections = new Map<string, McpConnection>();
  readonly #registered = new Map<string, string[]>();
  readonly #memory: McpApprovalMemory;
  #resourceTool = false;

  #started = false;

  constructor(
    servers: Record<string, McpServerConfig>,
    private readonly options: McpManagerOptions,
  ) {
    this.#memory = new McpApprovalMemory(options.approvalsFile);
    for (const [name, config] of Object.entries(servers)) this.#add(name, config);
  }

  /** Starts every connection and returns at once: a slow server never delays the gateway. */
  start(): void {
    this.#started = true;
    for (const connection of this.#connections.values()) connection.start();
  }

  /**
   * Applies a new `mcpServers` (config reload): removed servers are closed
   * (their whole process group ends) and their tools unregistered, changed
   * ones restarted, new ones connected; the others keep their connections.
   */
  async update(servers: Record<string, McpServerConfig>): Promise<void> {
    const stale = [...this.#connections.values()].filter((c) => servers[c.name] === undefined || JSON.stringify(servers[c.name]) !== JSON.stringify(c.config));
    await Promise.all(stale.map((connection) => this.#remove(connection)));
    for (const [name, config] of Object.entries(servers)) {
      if (this.#connections.has(name)) continue;
      const connection = this.#add(name, config);
      if (this.#started) connection.start();
      this.options.onChange?.({ server: name, part: 'state' });
    }
    this.#syncResourceTool();
  }

  /**
   * Starts a remote server's login again (its tokens forgotten): the
   * authorization URL to open, or undefined when the server asked for none.
   * With `callbackUrl` (where the browser ended, on another machine) the
   * pending login is finished with it instead.
   */
  async login(server: string, callbackUrl?: string): Promise<{ status: McpServerStatus; url?: string }> {
    const connection = this.#remote(server);
    if (callbackUrl) connection.finishLogin(callbackUrl);
    const url = callbackUrl ? undefined : await connection.relogin();
    return { status: this.#status(connection), ...(url ? { url } : {}) };
  }

  /** Forgets a remote server's tokens and registration and connects it again (it will ask for a login). */
  async logout(server: string): Promise<{ removed: boolean; status: McpServerStatus }> {
    const connection = this.#remote(server);
    const removed = this.options.auth ? forgetMcpCredentials(this.options.auth.dir, server) : false;
    await this.#remove(connection);
    const fresh = this.#add(server, connection.config);
    if (this.#started) fresh.start();
    return { removed, status: this.#status(fresh) };
  }

  #remote(server: string): McpConnection {
    const connection = this.#connection(server);
    if (!('url' in connection.config)) throw new McpCallError(`MCP server "${server}" runs locally (stdio): it has no login.`);
    return connection;
  }

  #status(connection: McpConnection): McpServerStatus {
    return connection.status(this.#registered.get(connection.name) ?? []);
  }

  status(): McpServerStatus[] {
    return [...this.#connections.values()].map((connection) => connection.status(this.#registered.get(connection.name) ?? []));
  }

  /** The server's last stderr lines, oldest first (stdio servers; empty for HTTP). */
  logs(server: string): StderrLine[] {
    return this.#connection(server).stderr.lines();
  }

  prompts(server?: string): McpPromptCommand[] {
    return promptCommands(server === undefined ? [...this.#connections.values()] : [this.#connection(server)]);
  }

  /** Runs a prompt: its messages, ready to be put into the conversation. */
  async getPrompt(server: string, prompt: string, args: Record<string, string>): Promise<{ description?: string; messages: McpPromptMessage[] }> {
    const result = await this.#connection(server).getPrompt(prompt, args);
    return { ...(result.description ? { description: result.description } : {}), messages: promptMessages(result) };
  }

  /** Values for a prompt argument (for completion in the TUI input); empty when the server offers none. */
  async completePrompt(server: string, prompt: string, argument: string, value: string, context?: Record<string, string>): Promise<string[]> {
    const completion = await this.#connection(server).complete({ type: 'ref/prompt', name: prompt }, { name: argument, value }, context);
    return completion.values;
  }

  resources(server?: string): { resources: McpResourceEntry[]; templates: McpResourceTemplateEntry[] } {
    const connections = (server === undefined ? [...this.#connections.values()] : [this.#connection(server)]).filter((c) => c.ready);
    const resources = connections.flatMap((c) =>
      c.catalog.resources.map((r) => ({
        server: c.name,
        uri: r.uri,
        name: r.name,
        ...(r.title ? { title: r.title } : {}),
        ...(r.mimeType ? { mimeType: r.mimeType } : {}),
        ...(r.description ? { description: r.description } : {}),
      })),
    );
    const templates = connections.flatMap((c) =>
      c.catalog.templates.map((t) => ({
        server: c.name,
        uriTemplate: t.uriTemplate,
        name: t.name,
        ...(t.title ? { title: t.title } : {}),
        ...(t.description ? { description: t.description } : {}),
      })),
    );
    return { resources, templates };
  }

  /** A resource's contents as text (what an `@server:uri` mention attaches to a message). */
  async readResource(server: string, uri: string): Promise<{ text: string; mimeType?: string }> {
    const result = await this.#connection(server).readResource(uri);
    const mimeType = result.contents[0]?.mimeType;
    return { text: resourceText(result), ...(mimeType ? { mimeType } : {}) };
  }

  /** The workspace or fsRoots changed: servers that listed roots are told to ask again. */
  rootsChanged(): void {
    for (const connection of this.#connections.values()) connection.notifyRootsChanged();
  }

  async close(): Promise<void> {
    await Promise.all([...this.#connections.values()].map((connection) => connection.close()));
    for (const names of this.#registered.values()) for (const name of names) this.options.registry.unregister(name);
    this.#registered.clear();
    if (this.#resourceTool) this.options.registry.unregister(RESOURCE_TOOL_NAME);
    this.#resourceTool = false;
  }

  #add(name: string, config: McpServerConfig): McpConnection {
    const { options } = this;
    const connection: McpConnection = new McpConnection(name, config, {
      backoff: options.backoff ?? DEFAULT_BACKOFF,
      connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
      now: () => (options.clock ?? systemClock).now(),
      roots: () => rootsOf(options.roots?.() ?? []),
      ...(options.elicit ? { elicit: options.elicit } : {}),
      ...(options.sample ? { sample: options.sample } : {}),
      ...(options.auth ? { auth: options.auth } : {}),
      ...(options.inputsFile ? { inputsFile: options.inputsFile } : {}),
      onCatalog: (part) => this.#synced(connection, part),
      onState: () => {
        if (this.#connections.get(name) === connection) options.onChange?.({ server: name, part: 'state' });
      },
    });
    this.#connections.set(name, connection);
    return connection;
  }

  async #remove(connection: McpConnection): Promise<void> {
    this.#connections.delete(connection.name);
    for (const name of this.#registered.get(connection.name) ?? []) this.options.registry.unregister(name);
    this.#registered.delete(connection.name);
    await connection.close();
    this.options.onChange?.({ server: connection.name, part: 'state' });
  }

  #connection(server: string): McpConnection {
    const connection = this.#connections.get(server);
    if (!connection) {
      const known = [...this.#connections.keys()];
      throw new McpCallError(`No MCP server named "${server}"${known.length ? ` (configured: ${known.join(', ')})` : ''}. Add one with \`claw mcp add\`.`);
    }
    return connection;
  }

  #synced(connection: McpConnection, part: CatalogPart | 'all'): void {
    // A connection removed by update() may still finish a listing.
    if (this.#connections.get(connection.name) !== connection) return;
    if (part === 'all' || part === 'tools') this.#syncTools(connection);
    if (part === 'all' || part === 'resources') this.#syncResourceTool();
    const parts: CatalogPart[] = part === 'all' ? ['tools', 'prompts', 'resources'] : [part];
    for (const changed of parts) this.options.onChange?.({ server: connection.name, part: changed });
  }

  #syncTools(connection: McpConnection): void {
    const { registry } = this.options;
    const previous = this.#registered.get(connection.name) ?? [];
    for (const name of previous) registry.unregister(name);
    const names: string[] = [];
    for (const tool of connection.catalog.tools) {
      const name = mcpToolName(connection.name, tool.name, (candidate) => names.includes(candidate) || registry.get(candidate) !== undefined);
      registry.register(mcpToolDefinition(name, tool, connection, this.#memory));
      names.push(name);
    }
    this.#registered.set(connection.name, names);
  }

  /** `mcp_resource` is offered while at least one server has resources or templates. */
  #syncResourceTool(): void {
    const wanted = [...this.#connections.values()].some((c) => c.catalog.resources.length > 0 || c.catalog.templates.length > 0);
    if (wanted === this.#resourceTool) return;
    const { registry } = this.options;
    if (wanted) registry.register(resourceToolDefinition({ connections: () => [...this.#connections.values()] }, this.#memory));
    else registry.unregister(RESOURCE_TOOL_NAME);
    this.#resourceTool = wanted;
  }
}

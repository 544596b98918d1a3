import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { writeFileAtomicSync } from '../../config/index.js';
import type { McpServerConfig } from './connection.js';

type RemoteConfig = Extract<McpServerConfig, { url: string }>;

/** What claw keeps for one server in `credentials/mcp/<name>.json` (0600): never in claw.json, never logged. */
interface StoredAuth {
  tokens?: OAuthTokens;
  client?: OAuthClientInformationMixed;
  codeVerifier?: string;
  state?: string;
  discovery?: OAuthDiscoveryState;
  /** The loopback port of the redirect URI registered with the authorization server (kept so the registration stays valid). */
  redirectPort?: number;
}

/** Where OAuth asks a person to log in, and where the gateway tells the owner. */
export interface McpAuthHooks {
  /** `credentials/mcp/`: one file per server. */
  dir: string;
  env: NodeJS.ProcessEnv;
  /** A server needs a person to log in: the URL to open (the gateway's listener catches the redirect). */
  authorizationRequired(server: string, url: string): void;
}

export function mcpCredentialFile(dir: string, server: string): string {
  return join(dir, `${server.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`);
}

/** Forgets a server's tokens and registration (`claw mcp logout`); false when there were none. */
export function forgetMcpCredentials(dir: string, server: string): boolean {
  const file = mcpCredentialFile(dir, server);
  try {
    readFileSync(file);
  } catch {
    return false;
  }
  rmSync(file, { force: true });
  return true;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const CALLBACK_PATH = '/callback';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}

/** Authorizations in a row that did not lead to a working connection before claw stops asking. */
const MAX_LOGIN_ATTEMPTS = 3;

/**
 * claw as an OAuth client of one MCP server (authorization code with PKCE, or
 * client credentials). The SDK runs discovery, registration, the token
 * requests and refresh; this keeps what they produce on disk and, when a
 * person must log in, opens a one-shot loopback listener for the redirect and
 * tells the owner the URL. The flow completes whenever any user agent follows
 * that URL: a browser on this machine, the owner's phone, a script.
 */
export class McpOAuth implements OAuthClientProvider {
  readonly #file: string;
  #stored: StoredAuth;
  #listener: Server | undefined;
  #onCode: ((code: string) => void) | undefined;
  /** A code the redirect brought that nobody has taken yet. */
  #code: string | undefined;
  #attempts = 0;
  #stepUp = false;
  /** From the authorization URL until its tokens are saved: one login at a time, whoever is refused meanwhile. */
  #inFlight = false;
  /** The PKCE verifier of the login in flight is on disk; a concurrent start must not replace it. */
  #verifierKept = false;
  /** The URL the owner must open while a login is pending. */
  pendingUrl: string | undefined;

  private constructor(
    readonly server: string,
    private readonly config: RemoteConfig,
    private readonly hooks: McpAuthHooks,
  ) {
    this.#file = mcpCredentialFile(hooks.dir, server);
    this.#stored = this.#read();
  }

  /** The provider for a server, with its redirect port settled (a registration names it). */
  static async open(server: string, config: RemoteConfig, hooks: McpAuthHooks): Promise<McpOAuth> {
    const oauth = new McpOAuth(server, config, hooks);
    if (oauth.#grant() === 'authorization_code' && oauth.#stored.redirectPort === undefined) oauth.#save({ redirectPort: await freePort() });
    const { clientId, privateKeyFile, signingAlgorithm } = config.oauth ?? {};
    if (clientId && privateKeyFile) {
      // RFC 7523 client authentication: a JWT signed with the client's key instead of a secret (loaded only when configured).
      const { createPrivateKeyJwtAuth } = await import('@modelcontextprotocol/sdk/client/auth-extensions.js');
      oauth.addClientAuthentication = createPrivateKeyJwtAuth({
        issuer: clientId,
        subject: clientId,
        privateKey: readFileSync(privateKeyFile, 'utf8'),
        alg: signingAlgorithm ?? 'ES256',
      });
    }
    return oauth;
  }

  addClientAuthentication: OAuthClientProvider['addClientAuthentication'];

  #grant(): 'authorization_code' | 'client_credentials' {
    return this.config.oauth?.grant ?? 'authorization_code';
  }

  #read(): StoredAuth {
    try {
      return JSON.parse(readFileSync(this.#file, 'utf8')) as StoredAuth;
    } catch {
      return {};
    }
  }

  #save(change: Partial<StoredAuth>): void {
    this.#stored = { ...this.#stored, ...change };
    for (const key of Object.keys(change) as Array<keyof StoredAuth>) if (change[key] === undefined) delete this.#stored[key];
    mkdirSync(this.hooks.dir, { recursive: true, mode: 0o700 });
    writeFileAtomicSync(this.#file, `${JSON.stringify(this.#stored, null, 2)}\n`, 0o600);
  }

  get redirectUrl(): string | undefined {
    return this.#grant() === 'authorization_code' ? `http://127.0.0.1:${this.#stored.redirectPort}${CALLBACK_PATH}` : undefined;
  }

  get clientMetadataUrl(): string | undefined {
    return this.config.oauth?.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.config.oauth?.scope;
    const secret = this.#clientSecret();
    if (this.#grant() === 'client_credentials') {
      return {
        client_name: 'claw',
        redirect_uris: [],
        grant_types: ['client_credentials'],
        token_endpoint_auth_method: this.config.oauth?.privateKeyFile ? 'private_key_jwt' : 'client_secret_basic',
        ...(scope ? { scope } : {}),
      };
    }
    return {
      client_name: 'claw',
      redirect_uris: [this.redirectUrl!],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: secret ? 'client_secret_basic' : 'none',
      ...(scope ? { scope } : {}),
    };
  }

  #clientSecret(): string | undefined {
    const name = this.config.oauth?.clientSecretEnv;
    return name ? this.hooks.env[name] : undefined;
  }

  state(): string {
    // Two requests refused at once start two authorizations: the first one's stands until its redirect arrives.
    if (this.#inFlight && this.#stored.state) return this.#stored.state;
    // The SDK asks for a state only when it starts an authorization: from here on this login is the one.
    this.#inFlight = true;
    this.#verifierKept = false;
    const state = randomBytes(16).toString('hex');
    this.#save({ state });
    return state;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const clientId = this.config.oauth?.clientId;
    if (clientId) {
      const secret = this.#clientSecret();
      return { client_id: clientId, ...(secret ? { client_secret: secret } : {}) };
    }
    return this.#stored.client;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.#save({ client });
  }

  tokens(): OAuthTokens | undefined {
    const tokens = this.#stored.tokens;
    // More scope is needed (a 403 insufficient_scope): a refresh cannot widen a grant, so the SDK must ask for a new one.
    if (tokens && this.#stepUp) {
      const { refresh_token: _refresh, ...withoutRefresh } = tokens;
      return withoutRefresh;
    }
    return tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.#stepUp = false;
    this.#inFlight = false;
    this.#verifierKept = false;
    this.#save({ tokens });
  }

  saveCodeVerifier(codeVerifier: string): void {
    if (this.#verifierKept) return;
    this.#verifierKept = true;
    this.#save({ codeVerifier });
  }

  /**
   * The transport's fetch, watching for a 403 `insufficient_scope`: the next
   * authorization then asks for the scope the server named instead of
   * refreshing the narrower grant.
   */
  fetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (response.status === 403 && /error="?insufficient_scope/.test(response.headers.get('www-authenticate') ?? '')) this.#stepUp = true;
    return response;
  };

  codeVerifier(): string {
    const verifier = this.#stored.codeVerifier;
    if (!verifier) throw new Error(`no login to MCP server "${this.server}" is in progress; run \`claw mcp login ${this.server}\``);
    return verifier;
  }

  saveDiscoveryState(discovery: OAuthDiscoveryState): void {
    this.#save({ discovery });
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#stored.discovery;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all') this.#save({ tokens: undefined, client: undefined, codeVerifier: undefined, discovery: undefined });
    else if (scope === 'client') this.#save({ client: undefined });
    else if (scope === 'tokens') this.#save({ tokens: undefined });
    else if (scope === 'verifier') this.#save({ codeVerifier: undefined });
    else this.#save({ discovery: undefined });
  }

  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (this.#grant() !== 'client_credentials') return undefined;
    return new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) });
  }

  /** Opens the loopback listener for the redirect and tells the owner where to log in. */
  async redirectToAuthorization(url: URL): Promise<void> {
    // A server that refuses every token it gets would send the owner round in circles.
    if (this.pendingUrl) return;
    this.#attempts += 1;
    if (this.#attempts > MAX_LOGIN_ATTEMPTS) {
      this.pendingUrl = undefined;
      throw new Error(
        `MCP server "${this.server}" refused ${MAX_LOGIN_ATTEMPTS} logins in a row; claw stopped asking. Check its OAuth settings, then run \`claw mcp login ${this.server}\`.`,
      );
    }
    this.pendingUrl = url.toString();
    await this.#listen();
    this.hooks.authorizationRequired(this.server, this.pendingUrl);
  }

  /** A connection worked: the next failing token may ask for a login again. */
  connected(): void {
    this.#attempts = 0;
  }

  /** The owner asked to log in (`claw mcp login`), or the last one failed: a new login may start, the attempt limit with it. */
  resetAttempts(): void {
    this.#attempts = 0;
    this.abandonLogin();
  }

  /** The pending login is over without tokens (its code refused): the next refusal starts a new one. */
  abandonLogin(): void {
    this.#inFlight = false;
    this.#verifierKept = false;
    this.#code = undefined;
    this.pendingUrl = undefined;
    this.close();
  }

  /**
   * Calls back once with the authorization code of the pending login (the
   * state checked) — at once when the redirect came before anyone asked: a
   * fast user agent can bring it back before the refused request has failed.
   */
  onCode(callback: (code: string) => void): void {
    this.#onCode = callback;
    this.#deliver();
  }

  #deliver(): void {
    const code = this.#code;
    const callback = this.#onCode;
    if (code === undefined || !callback) return;
    this.#code = undefined;
    this.#onCode = undefined;
    this.pendingUrl = undefined;
    callback(code);
  }

  async #listen(): Promise<void> {
    if (this.#listener) return;
    const listener = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== CALLBACK_PATH || (!url.searchParams.has('code') && !url.searchParams.has('error'))) {
        response.writeHead(404).end();
        return;
      }
      let problem: string | undefined;
      try {
        this.acceptCallback(url);
      } catch (error) {
        problem = error instanceof Error ? error.message : String(error);
      }
      // The listener closes once the login is through: this answer is the connection's last.
      response.writeHead(problem ? 400 : 200, { 'content-type': 'text/html; charset=utf-8', connection: 'close' });
      response.end(problem ? `<p>${escapeHtml(problem)}</p>` : `<p>claw is logged in to MCP server "${escapeHtml(this.server)}". You can close this tab.</p>`);
    });
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(this.#stored.redirectPort, '127.0.0.1', () => resolve());
    });
    listener.unref();
    this.#listener = listener;
  }

  /** The redirect of the pending login (caught by the listener, or pasted): its state must be the one claw sent. */
  acceptCallback(url: URL): void {
    const code = url.searchParams.get('code');
    const error = url.searchParams.get('error');
    if (!code || url.searchParams.get('state') !== this.#stored.state) {
      throw new Error(
        `claw could not log in to MCP server "${this.server}": ${error ?? 'the answer did not match the login claw started'}. Run \`claw mcp login ${this.server}\` again.`,
      );
    }
    this.close();
    this.#code = code;
    this.#deliver();
  }

  close(): void {
    // Stops taking connections; an answer being written (the callback's own) still goes out.
    this.#listener?.close();
    this.#listener?.closeIdleConnections();
    this.#listener = undefined;
  }
}

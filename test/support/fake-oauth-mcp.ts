import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { buildTestMcpServer } from './mcp-test-tools.js';

/**
 * An MCP server behind OAuth 2.1 on loopback, its own authorization server on
 * the same port, speaking what the MCP authorization spec asks for and
 * refusing what a real one refuses: protected resource metadata (RFC 9728),
 * authorization server metadata (RFC 8414), dynamic client registration
 * (RFC 7591), authorization code with PKCE S256 only, refresh tokens,
 * `resource` indicators (RFC 8707) that must name this server, and 401 with
 * `WWW-Authenticate: Bearer resource_metadata=…` for a missing or dead token.
 * `/authorize` approves at once (the owner "clicks allow") and redirects.
 */
export interface FakeOAuthMcp {
  url: string;
  /** Every authorization request received. */
  authorizations: URLSearchParams[];
  /** Token requests by grant type. */
  tokenGrants: string[];
  /** Access tokens expire now (refresh tokens still work). */
  expireAccessTokens(): void;
  /** Every token, refresh tokens included, stops working (the owner revoked claw's access). */
  revokeAll(): void;
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
}

export async function startFakeOAuthMcp(): Promise<FakeOAuthMcp> {
  const clients = new Map<string, string[]>();
  const codes = new Map<string, { clientId: string; challenge: string; redirectUri: string }>();
  const access = new Set<string>();
  const refresh = new Set<string>();
  const authorizations: URLSearchParams[] = [];
  const tokenGrants: string[] = [];
  let base = '';
  const issue = (): Record<string, unknown> => {
    const accessToken = randomUUID();
    const refreshToken = randomUUID();
    access.add(accessToken);
    refresh.add(refreshToken);
    return { access_token: accessToken, token_type: 'Bearer', expires_in: 3600, refresh_token: refreshToken, scope: 'mcp' };
  };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', base);
    const resource = `${base}/mcp`;
    if (url.pathname === '/.well-known/oauth-protected-resource/mcp' || url.pathname === '/.well-known/oauth-protected-resource') {
      json(res, 200, { resource, authorization_servers: [base], scopes_supported: ['mcp'] });
      return;
    }
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      json(res, 200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
      });
      return;
    }
    if (url.pathname === '/register' && req.method === 'POST') {
      const metadata = JSON.parse(await body(req)) as { redirect_uris?: string[] };
      if (!metadata.redirect_uris?.length || !metadata.redirect_uris.every((uri) => /^http:\/\/127\.0\.0\.1:\d+\//.test(uri))) {
        json(res, 400, { error: 'invalid_redirect_uri', error_description: 'redirect_uris must be loopback http URLs' });
        return;
      }
      const clientId = randomUUID();
      clients.set(clientId, metadata.redirect_uris);
      json(res, 201, { ...metadata, client_id: clientId, client_id_issued_at: Math.floor(Date.now() / 1000) });
      return;
    }
    if (url.pathname === '/authorize') {
      const params = url.searchParams;
      authorizations.push(params);
      const clientId = params.get('client_id') ?? '';
      const redirectUri = params.get('redirect_uri') ?? '';
      if (!clients.get(clientId)?.includes(redirectUri) || params.get('code_challenge_method') !== 'S256' || !params.get('code_challenge')) {
        res.writeHead(400).end('unknown client, unregistered redirect_uri or no S256 PKCE');
        return;
      }
      if (params.get('resource') !== resource) {
        res.writeHead(400).end(`resource must be ${resource}`);
        return;
      }
      const code = randomUUID();
      codes.set(code, { clientId, challenge: params.get('code_challenge')!, redirectUri });
      const target = new URL(redirectUri);
      target.searchParams.set('code', code);
      if (params.get('state')) target.searchParams.set('state', params.get('state')!);
      res.writeHead(302, { location: target.toString() }).end();
      return;
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const form = new URLSearchParams(await body(req));
      const grant = form.get('grant_type') ?? '';
      tokenGrants.push(grant);
      if (grant === 'authorization_code') {
        const entry = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (!entry || entry.challenge !== challenge || entry.redirectUri !== form.get('redirect_uri') || entry.clientId !== form.get('client_id')) {
          json(res, 400, { error: 'invalid_grant', error_description: 'code, verifier, redirect_uri or client do not match' });
          return;
        }
        json(res, 200, issue());
        return;
      }
      if (grant === 'refresh_token') {
        const token = form.get('refresh_token') ?? '';
        if (!refresh.delete(token)) {
          json(res, 400, { error: 'invalid_grant', error_description: 'refresh token revoked or unknown' });
          return;
        }
        json(res, 200, issue());
        return;
      }
      json(res, 400, { error: 'unsupported_grant_type' });
      return;
    }
    if (url.pathname === '/mcp') {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!token || !access.has(token)) {
        json(
          res,
          401,
          { error: 'invalid_token', error_description: token ? 'token expired or revoked' : 'no token' },
          { 'www-authenticate': `Bearer error="invalid_token", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` },
        );
        return;
      }
      if (req.method !== 'POST') {
        res.writeHead(405).end();
        return;
      }
      const mcp = buildTestMcpServer('oauth');
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      await mcp.connect(transport);
      await transport.handleRequest(req, res, JSON.parse(await body(req)));
      res.on('close', () => void mcp.close());
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/mcp`,
    authorizations,
    tokenGrants,
    expireAccessTokens: () => access.clear(),
    revokeAll: () => {
      access.clear();
      refresh.clear();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';

/** Settings every server has besides how to reach it. */
const common = () => ({
  /** `ask`: every call waits for an operator in the approval inbox; `allow`: calls run directly. */
  trust: z.enum(['ask', 'allow']).default('ask'),
  enabled: z.boolean().default(true),
  /** Longest a tool call may go without an answer or a progress notification before it fails with a timeout result. */
  timeoutMs: z.number().int().positive().default(60_000),
  /** Hard limit for one call however often the server reports progress. */
  maxTimeoutMs: z.number().int().positive().default(600_000),
  /** Let the server ask the agent's model for completions (MCP sampling); off unless you trust the server with model spend. */
  sampling: z.boolean().default(false),
  /** Whether the server's tools wait behind `tool_search`: `auto` when every tool would not fit a request, `always`, or `never`. */
  defer: z.enum(['auto', 'always', 'never']).default('auto'),
});

/**
 * OAuth for a remote server. Nothing is needed for a server that supports
 * dynamic client registration: claw discovers the authorization server,
 * registers itself and asks the owner to log in (`claw mcp login NAME`).
 * A pre-registered client names its id (and secret); a machine client uses
 * the `client_credentials` grant with a secret or a private key (JWT).
 */
const mcpOAuth = lazySchema(() =>
  z.strictObject({
    clientId: z.string().min(1).optional(),
    /** Environment variable holding the client secret (never the secret itself in claw.json). */
    clientSecretEnv: z.string().min(1).optional(),
    /** `authorization_code` (a person logs in) or `client_credentials` (the client is the principal). */
    grant: z.enum(['authorization_code', 'client_credentials']).default('authorization_code'),
    /** PEM private key file for `private_key_jwt` client authentication (client_credentials). */
    privateKeyFile: z.string().min(1).optional(),
    signingAlgorithm: z.string().min(1).default('ES256'),
    /** Scopes to ask for when the server does not say which it needs. */
    scope: z.string().min(1).optional(),
    /** An https URL where claw's client metadata document is published (Client ID Metadata Documents). */
    clientMetadataUrl: z.string().url().optional(),
  }),
);

/** A VS Code `inputs` entry: a value claw asks the owner for once (`claw mcp inputs`) and keeps as a secret. */
const mcpInput = lazySchema(() =>
  z.object({ id: z.string().min(1), type: z.string().optional(), description: z.string().optional(), password: z.boolean().optional() }),
);

/**
 * The `mcpServers` shape shared with other MCP clients. `type` is what Claude
 * Code and VS Code write; it may be left out (a `command` means stdio, a
 * `url` streamable HTTP). `"type": "sse"` reaches legacy HTTP+SSE servers.
 */
export const mcpServerEntry = lazySchema(() =>
  z.union(
    [
      z.strictObject({
        type: z.literal('stdio').default('stdio'),
        command: z.string().min(1),
        args: z.array(z.string()).default([]),
        env: z.record(z.string(), z.string()).default({}),
        /** KEY=VALUE lines added to `env` at each start (VS Code's `envFile`); `env` wins. */
        envFile: z.string().optional(),
        cwd: z.string().optional(),
        /** Values `${input:ID}` stands for, asked once (VS Code's `inputs`, kept by claw in credentials/). */
        inputs: z.array(mcpInput).optional(),
        ...common(),
      }),
      z.strictObject({
        type: z.enum(['http', 'sse']).default('http'),
        url: z.string().url(),
        headers: z.record(z.string(), z.string()).default({}),
        oauth: mcpOAuth.optional(),
        inputs: z.array(mcpInput).optional(),
        ...common(),
      }),
    ],
    {
      error: () =>
        'an MCP server is {"command", "args", "env", "cwd"} (stdio) or {"url", "headers"} with "type" "http" or "sse"; VS Code\'s mcp.json block {"servers", "inputs"} is taken as the whole of mcpServers',
    },
  ),
);

/**
 * VS Code's mcp.json, pasted as the value of `mcpServers`: its `servers` are
 * the entries, and each one keeps the `inputs` it refers to (`${input:ID}`).
 */
function fromVsCode(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const block = value as { servers?: unknown; inputs?: unknown };
  const keys = Object.keys(block);
  if (typeof block.servers !== 'object' || block.servers === null || !keys.every((key) => key === 'servers' || key === 'inputs')) return value;
  const inputs = Array.isArray(block.inputs) ? (block.inputs as Array<{ id?: unknown }>) : [];
  return Object.fromEntries(
    Object.entries(block.servers as Record<string, unknown>).map(([name, entry]) => {
      const text = JSON.stringify(entry);
      const used = inputs.filter((input) => typeof input.id === 'string' && text.includes(`\${input:${input.id}}`));
      // VS Code's `dev` settings (watch, debug) mean nothing outside VS Code.
      const { dev: _dev, ...rest } = entry as Record<string, unknown>;
      return [name, used.length > 0 ? { ...rest, inputs: used } : rest];
    }),
  );
}

/**
 * One entry that is not an MCP server claw can start stands in as a disabled
 * server carrying why (`refused`): `claw mcp list` and the TUI say it, and
 * the rest of claw.json loads (`claw config set` and `claw mcp add` still
 * refuse to write one).
 */
function orRefused(raw: unknown): McpServerEntry {
  const checked = mcpServerEntry.safeParse(raw);
  if (checked.success) return checked.data;
  const problem = checked.error.issues.map((issue) => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`).join('; ');
  return { ...mcpServerEntry.parse({ command: 'refused', enabled: false }), refused: problem } as McpServerEntry;
}

export type McpServerEntry = z.output<typeof mcpServerEntry> & { refused?: string };

export const mcpServersSection = lazySchema(() =>
  z.preprocess(
    fromVsCode,
    z
      .record(z.string(), z.unknown())
      .transform((servers): Record<string, McpServerEntry> => Object.fromEntries(Object.entries(servers).map(([name, raw]) => [name, orRefused(raw)]))),
  ),
);

export interface McpSdk {
  Client: typeof import('@modelcontextprotocol/sdk/client/index.js').Client;
  StreamableHTTPClientTransport: typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPClientTransport;
  SSEClientTransport: typeof import('@modelcontextprotocol/sdk/client/sse.js').SSEClientTransport;
  stdio: typeof import('@modelcontextprotocol/sdk/shared/stdio.js');
  types: typeof import('@modelcontextprotocol/sdk/types.js');
  UnauthorizedError: typeof import('@modelcontextprotocol/sdk/client/auth.js').UnauthorizedError;
}

let sdk: McpSdk | undefined;

/**
 * The SDK takes ~0.4 s to load and most gateways configure no MCP server, so
 * it is loaded by the first connection instead of at gateway start.
 */
export async function loadSdk(): Promise<McpSdk> {
  if (!sdk) {
    const [client, http, sse, stdio, types, auth] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/client/sse.js'),
      import('@modelcontextprotocol/sdk/shared/stdio.js'),
      import('@modelcontextprotocol/sdk/types.js'),
      import('@modelcontextprotocol/sdk/client/auth.js'),
    ]);
    sdk = {
      Client: client.Client,
      StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
      SSEClientTransport: sse.SSEClientTransport,
      stdio,
      types,
      UnauthorizedError: auth.UnauthorizedError,
    };
  }
  return sdk;
}

/** The SDK once a connection has loaded it; code that only runs on a live connection may rely on it. */
export function loadedSdk(): McpSdk {
  if (!sdk) throw new Error('the MCP SDK is used before any connection loaded it');
  return sdk;
}

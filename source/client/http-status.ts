import { get as httpGet } from 'node:http';
import type { StatusPayload } from '../protocol/index.js';
import { dialHost, type GatewayInfo } from './gateway-info.js';

/** More than any status answer; a reply this long is not from a claw gateway. */
const MAX_BODY_BYTES = 1 << 20;

/**
 * The `status` method over one authenticated HTTP GET (`/status`) instead of a
 * WebSocket session: no handshake, no hello snapshot, and `claw status` loads
 * neither ws nor crypto. Rejects with the gateway's own error message.
 */
export function fetchStatus(info: GatewayInfo, token: string, timeoutMs: number): Promise<StatusPayload> {
  return new Promise((resolve, reject) => {
    const url = new URL(`http://${dialHost(info.bind)}:${info.port}/status`);
    const req = httpGet(url, { agent: false, timeout: timeoutMs, headers: { authorization: `Bearer ${token}` } }, (res) => {
      const chunks: Buffer[] = [];
      let length = 0;
      res.on('data', (chunk: Buffer) => {
        length += chunk.length;
        if (length > MAX_BODY_BYTES) req.destroy(new Error(`the status answer from ${url.host} is over ${MAX_BODY_BYTES} bytes`));
        else chunks.push(chunk);
      });
      res.on('end', () => {
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          reject(new Error(`${url.host} answered /status with HTTP ${res.statusCode} and no JSON: is it a claw gateway?`));
          return;
        }
        if (res.statusCode === 200) resolve(body as StatusPayload);
        // A gateway started by an older claw (upgraded while it ran) has no /status: its restart runs this one.
        else if (res.statusCode === 404)
          reject(new Error(`this gateway (claw ${info.version}) predates \`claw status\` over HTTP; restart it with \`claw gateway restart\``));
        else reject(new Error(errorMessage(body) ?? `HTTP ${res.statusCode} from ${url.host}/status`));
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`the gateway did not answer /status within ${timeoutMs} ms`)));
    req.on('error', reject);
  });
}

function errorMessage(body: unknown): string | undefined {
  const error = (body as { error?: { message?: unknown } } | null)?.error;
  return typeof error?.message === 'string' ? error.message : undefined;
}

import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';

export const DEFAULT_GATEWAY_PORT = 18789;

export const gatewaySection = lazySchema(() =>
  z.strictObject({
    /** TCP port for WebSocket and HTTP. `--port` and CLAW_GATEWAY_PORT win over this. */
    port: z.number().int().min(1).max(65535).default(DEFAULT_GATEWAY_PORT),
    /** Address to bind. Anything but loopback requires a token (one always exists). */
    bind: z.string().min(1).default('127.0.0.1'),
    /** How long SIGTERM / restart waits for running turns before giving up on them. */
    drainTimeoutMs: z.number().int().min(0).max(300_000).default(10_000),
    /** A client whose unsent data passes this is dropped rather than stall the gateway. */
    sendBufferLimitBytes: z
      .number()
      .int()
      .min(65_536)
      .default(8 * 1024 * 1024),
    /** Interval of the `tick` keep-alive event. */
    tickIntervalMs: z.number().int().min(1000).default(15_000),
    /** Browser origins allowed to open the WebSocket (e.g. `http://localhost:3000`); CLI and TUI send no Origin. Empty refuses every browser. */
    allowedOrigins: z.array(z.string().min(1)).default([]),
    /** How many recent events are kept for clients that resume with `sinceSeq`. */
    resumeBufferEvents: z.number().int().min(0).max(100_000).default(2000),
  }),
);

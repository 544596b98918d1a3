import type { ClawConfig } from './schema.js';

/** Port precedence: `--port` > CLAW_GATEWAY_PORT > config. */
export function resolveGatewayPort(config: ClawConfig, flag?: number, env: NodeJS.ProcessEnv = process.env): number {
  if (flag !== undefined) return checkPort(flag, '--port');
  const fromEnv = env.CLAW_GATEWAY_PORT?.trim();
  if (fromEnv) return checkPort(Number(fromEnv), 'CLAW_GATEWAY_PORT');
  return config.gateway.port;
}

function checkPort(port: number, source: string): number {
  // 0 asks the OS for a free port (tests, and several gateways side by side).
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`${source} must be a port number from 0 to 65535 (got ${String(port)}).`);
  }
  return port;
}

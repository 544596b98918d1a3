import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** Registers a literal secret (e.g. the gateway token) that must never be written. */
  addSecret(secret: string): void;
}

const secretPatterns: RegExp[] = [
  /\b(sk|pk|rk)-[A-Za-z0-9_-]{8,}/g,
  /\bsk-ant-[A-Za-z0-9_-]{8,}/g,
  /(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
  /("?(?:token|apiKey|api_key|password|secret|authorization)"?\s*[:=]\s*"?)[^",\s}]{4,}/gi,
  /([?&](?:token|key|access_token)=)[^&\s]+/gi,
];

export function redactSecrets(text: string, literals: Iterable<string> = []): string {
  let out = text;
  for (const literal of literals) if (literal.length >= 8) out = out.split(literal).join('[redacted]');
  for (const pattern of secretPatterns) {
    out = out.replace(pattern, (match, prefix: unknown) => (typeof prefix === 'string' && match.startsWith(prefix) ? `${prefix}[redacted]` : '[redacted]'));
  }
  return out;
}

function day(now: Date): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, '0');
  const d = String(now.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/** Daily log files under `<state>/logs`, secrets redacted before they touch disk. */
export function createFileLogger(logDir: string, options: { echo?: boolean; level?: LogLevel } = {}): Logger {
  mkdirSync(logDir, { recursive: true, mode: 0o700 });
  const secrets = new Set<string>();
  const order: LogLevel[] = ['debug', 'info', 'warn', 'error'];
  const min = order.indexOf(options.level ?? (process.env.CLAW_LOG_LEVEL as LogLevel | undefined) ?? 'info');
  const write = (level: LogLevel, message: string, fields?: Record<string, unknown>): void => {
    if (order.indexOf(level) < min) return;
    const now = new Date();
    const extra = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
    const line = redactSecrets(`${now.toISOString()} ${level.toUpperCase()} ${message}${extra}`, secrets);
    try {
      appendFileSync(join(logDir, `gateway-${day(now)}.log`), `${line}\n`, { mode: 0o600 });
    } catch {
      /* a full disk must not take the gateway down */
    }
    if (options.echo) (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    addSecret: (s) => {
      secrets.add(s);
    },
  };
}

export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  addSecret: () => undefined,
};

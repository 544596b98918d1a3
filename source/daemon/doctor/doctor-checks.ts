import { existsSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { loadConfig, resolveGatewayPort, type ClawConfig, type StatePaths } from '../../config/index.js';
import { findLocalGateway } from '../../client/index.js';
import { CHROMIUM_MISSING, describeExecSandbox, execSandboxFor, findChromium } from '../../tools/index.js';
import { currentServiceEnvironment, serviceInstalled, serviceFilePath } from '../supervision/index.js';

export interface DoctorCheck {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  /** What to do about it, when status is not ok. */
  fix?: string;
}

const MIN_NODE = [20, 19] as const;

export function checkNodeVersion(version = process.versions.node): DoctorCheck {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  return ok
    ? { name: 'node', status: 'ok', detail: `Node ${version}` }
    : {
        name: 'node',
        status: 'fail',
        detail: `Node ${version} is too old`,
        fix: `Install Node ${MIN_NODE.join('.')} or newer (e.g. with nvm), then \`npm ci\` again.`,
      };
}

function modeOf(path: string): number {
  return statSync(path).mode & 0o777;
}

export function checkStateDir(paths: StatePaths): DoctorCheck {
  if (!existsSync(paths.root)) return { name: 'state dir', status: 'ok', detail: `${paths.root} (created on first start)` };
  const mode = modeOf(paths.root);
  if (mode & 0o077) {
    return { name: 'state dir', status: 'warn', detail: `${paths.root} is readable by others (mode ${mode.toString(8)})`, fix: `chmod 700 ${paths.root}` };
  }
  return { name: 'state dir', status: 'ok', detail: `${paths.root} (mode ${mode.toString(8)})` };
}

export function checkTokenFile(paths: StatePaths): DoctorCheck {
  if (!existsSync(paths.gatewayToken)) return { name: 'token', status: 'ok', detail: 'not created yet (made on first gateway start)' };
  const mode = modeOf(paths.gatewayToken);
  if (mode !== 0o600) {
    return { name: 'token', status: 'fail', detail: `${paths.gatewayToken} has mode ${mode.toString(8)}`, fix: `chmod 600 ${paths.gatewayToken}` };
  }
  return { name: 'token', status: 'ok', detail: `${paths.gatewayToken} (0600)` };
}

function portIsFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

export async function checkPort(paths: StatePaths, config: ClawConfig): Promise<DoctorCheck> {
  const port = resolveGatewayPort(config);
  const running = findLocalGateway(paths);
  if (running) {
    return running.info.port === port || port === 0
      ? { name: 'port', status: 'ok', detail: `${port} is ours (gateway pid ${running.info.pid})` }
      : {
          name: 'port',
          status: 'warn',
          detail: `the gateway runs on ${running.info.port}, config says ${port}`,
          fix: '`claw gateway restart` to apply the configured port.',
        };
  }
  if (port === 0 || (await portIsFree(port, config.gateway.bind))) return { name: 'port', status: 'ok', detail: `${config.gateway.bind}:${port} is free` };
  return {
    name: 'port',
    status: 'fail',
    detail: `${config.gateway.bind}:${port} is used by another program`,
    fix: `Stop it, or pick another port: \`claw config set gateway.port <n>\`.`,
  };
}

export function checkSqliteVec(): DoctorCheck {
  try {
    const require = createRequire(import.meta.url);
    const Database = require('better-sqlite3') as typeof import('better-sqlite3');
    const sqliteVec = require('sqlite-vec') as { load(db: unknown): void };
    const db = new Database(':memory:');
    try {
      sqliteVec.load(db);
      const row = db.prepare('select vec_version() as v').get() as { v: string };
      return { name: 'sqlite-vec', status: 'ok', detail: `vector search available (${row.v})` };
    } finally {
      db.close();
    }
  } catch (error) {
    return {
      name: 'sqlite-vec',
      status: 'warn',
      detail: `vector extension does not load: ${(error as Error).message}`,
      fix: 'Memory search falls back to keywords. Reinstall with `npm ci` on this machine (the extension is platform-specific).',
    };
  }
}

export async function checkProvider(paths: StatePaths, config: ClawConfig): Promise<DoctorCheck> {
  // Loaded here, not at the top: gateway/index.ts is on the path of every CLI command.
  const { createProviders } = await import('../../providers/index.js');
  const providers = createProviders({ config, paths });
  const model = await providers.defaultModel();
  if (model) return { name: 'provider', status: 'ok', detail: `default model ${model}` };
  return { name: 'provider', status: 'fail', detail: 'no model provider is configured', fix: providers.setupGuide() };
}

export function checkSupervision(): DoctorCheck {
  const env = currentServiceEnvironment();
  try {
    if (serviceInstalled(env)) return { name: 'supervision', status: 'ok', detail: `service installed (${serviceFilePath(env)})` };
  } catch (error) {
    return { name: 'supervision', status: 'warn', detail: (error as Error).message };
  }
  return {
    name: 'supervision',
    status: 'warn',
    detail: 'the gateway is not supervised: it will not come back after a crash or reboot',
    fix: '`claw gateway install`',
  };
}

/** Every check, in the order a person would fix them. */
export async function runDoctor(paths: StatePaths): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [checkNodeVersion(), checkStateDir(paths), checkTokenFile(paths)];
  let config: ClawConfig;
  try {
    config = loadConfig(paths.config);
    checks.push({ name: 'config', status: 'ok', detail: existsSync(paths.config) ? paths.config : 'defaults (no claw.json yet)' });
  } catch (error) {
    checks.push({ name: 'config', status: 'fail', detail: (error as Error).message, fix: `Edit ${paths.config}.` });
    return [...checks, checkSqliteVec(), checkSupervision()];
  }
  checks.push(
    await checkPort(paths, config),
    checkSqliteVec(),
    await checkProvider(paths, config),
    checkExecSandbox(config, paths),
    checkBrowser(config),
    checkSupervision(),
  );
  const { configuredAgentIds, memoryDoctorCheck } = await import('../../memory/index.js');
  for (const agentId of configuredAgentIds(config)) checks.push(await memoryDoctorCheck({ config, paths, agentId }));
  return checks;
}

/** Every exec runs in an OS sandbox; without one, commands still run but each asks first. */
export function checkExecSandbox(config: ClawConfig, paths: StatePaths): DoctorCheck {
  const described = describeExecSandbox(execSandboxFor(config, paths));
  if (described.sandboxed) return { name: 'sandbox', status: 'ok', detail: described.text };
  return {
    name: 'sandbox',
    status: 'warn',
    detail: described.text,
    fix: 'Install bubblewrap (Debian/Ubuntu: `sudo apt-get install bubblewrap`), or set tools.exec.sandbox.mode back to its default.',
  };
}

/** The browser tool needs a Chromium; without one everything else works and the tool says what to install. */
export function checkBrowser(config: ClawConfig): DoctorCheck {
  const settings = config.tools.browser;
  if (!settings.enabled) return { name: 'browser', status: 'ok', detail: 'off (tools.browser.enabled is false)' };
  const chromium = findChromium(settings.executablePath);
  if (chromium && existsSync(chromium)) return { name: 'browser', status: 'ok', detail: `${chromium} (starts at the first browser call)` };
  return {
    name: 'browser',
    status: 'warn',
    detail: settings.executablePath
      ? `tools.browser.executablePath ${settings.executablePath} does not exist`
      : 'no Chromium on PATH: the browser tool cannot start',
    fix: CHROMIUM_MISSING,
  };
}

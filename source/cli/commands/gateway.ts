import { CLAW_VERSION, statePaths } from '../../config/index.js';
import {
  createScopedToken,
  ensureGatewayTokenSync,
  listScopedTokens,
  loadConfig,
  parseScopes,
  readGatewayTokenSync,
  revokeScopedToken,
} from '../../config/index.js';
import { findLocalGateway, restartGateway, startGatewayDetached, stopGateway } from '../../client/index.js';
import type { CommandRun } from '../command.js';
import { printJson } from '../format.js';
import { run as runStatus } from './status.js';
import type { StatePaths } from '../../config/index.js';

// The daemon (server, SQLite, providers) loads only for the actions that run or install it.
const daemon = () => import('../../daemon/index.js');

const usage = 'Usage: claw gateway run|start|stop|restart|status|token|connect-info|install|uninstall [--port N] [--json]';
const tokenUsage = `Usage:
  claw gateway token                                  print the main (operator) token
  claw gateway token create --scopes read[,write,…] [--name NAME] [--json]
  claw gateway token list [--json]
  claw gateway token revoke ID`;

/** The value of `--name value` or `--name=value` in raw argv. */
function option(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === `--${name}`) return argv[i + 1];
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  }
  return undefined;
}

function tokenCommand(paths: StatePaths, rest: readonly string[], argv: readonly string[], json: boolean): number {
  const [sub, id] = rest;
  try {
    switch (sub) {
      case undefined: {
        const token = readGatewayTokenSync(paths) ?? ensureGatewayTokenSync(paths);
        process.stdout.write(`${token}\n`);
        return 0;
      }
      case 'create': {
        const scopesText = option(argv, 'scopes');
        if (!scopesText) throw new Error('create needs --scopes, e.g. --scopes read or --scopes read,write');
        const name = option(argv, 'name');
        const { token, record } = createScopedToken(paths, parseScopes(scopesText), name);
        if (json) printJson({ id: record.id, scopes: record.scopes, token, ...(name ? { name } : {}) });
        else
          process.stdout.write(
            `${token}\nid ${record.id} · scopes ${record.scopes.join(',')} · shown once: store it now (revoke with \`claw gateway token revoke ${record.id}\`)\n`,
          );
        return 0;
      }
      case 'list': {
        const tokens = listScopedTokens(paths).map(({ hash: _hash, ...rest }) => rest);
        if (json) printJson({ tokens });
        else if (tokens.length === 0) process.stdout.write('No scoped tokens (the main token has every scope).\n');
        else
          for (const t of tokens)
            process.stdout.write(`${t.id}  ${t.scopes.join(',').padEnd(22)} ${new Date(t.createdAt).toISOString()}${t.name ? `  ${t.name}` : ''}\n`);
        return 0;
      }
      case 'revoke': {
        if (!id) throw new Error('revoke needs the token id (see `claw gateway token list`)');
        const removed = revokeScopedToken(paths, id);
        if (json) printJson({ revoked: removed.id });
        else process.stdout.write(`revoked ${removed.id} (${removed.scopes.join(',')}); new connections with it are refused\n`);
        return 0;
      }
      default:
        throw new Error(`unknown token action "${sub}"`);
    }
  } catch (error) {
    process.stderr.write(`claw gateway token: ${(error as Error).message}.\n${tokenUsage}\n`);
    return 2;
  }
}

export const run: CommandRun = async (input) => {
  const [action, ...rest] = input.args;
  const paths = statePaths();
  const { flags } = input;
  switch (action) {
    case 'run':
      return (await import('../gateway-run.js')).runGateway(input);
    case 'start': {
      const { started, gateway } = await startGatewayDetached(paths, flags.port !== undefined ? { port: flags.port } : {});
      if (flags.json) printJson({ started, url: gateway.url, pid: gateway.info.pid });
      else process.stdout.write(`${started ? 'started' : 'already running'}: ${gateway.url} (pid ${gateway.info.pid})\n`);
      return 0;
    }
    case 'stop': {
      const result = await stopGateway(paths);
      if (flags.json) printJson(result);
      else process.stdout.write(result.stopped ? `stopped (pid ${result.pid})\n` : 'gateway: not running\n');
      return 0;
    }
    case 'restart': {
      // A gateway restarted on a broken file would not come back: refuse while it is still running.
      let drainMs: number;
      try {
        drainMs = loadConfig(paths.config).gateway.drainTimeoutMs;
      } catch (error) {
        process.stderr.write(
          `claw: not restarting; the gateway keeps running on its last good config.\n${error instanceof Error ? error.message : String(error)}\n`,
        );
        return 1;
      }
      // The old gateway first lets running turns finish for up to gateway.drainTimeoutMs: waiting less would call a slow restart a failed one.
      const gateway = await restartGateway(paths, { timeoutMs: drainMs + 20_000 });
      if (flags.json) printJson({ url: gateway.url, pid: gateway.info.pid });
      else process.stdout.write(`restarted: ${gateway.url} (pid ${gateway.info.pid})\n`);
      return 0;
    }
    case 'status':
      return runStatus({ ...input, args: rest });
    case 'connect-info': {
      // One JSON line for `claw attach` over ssh: version, whether it runs, port, token.
      if (input.argv.includes('--start')) await startGatewayDetached(paths);
      const found = findLocalGateway(paths);
      const token = readGatewayTokenSync(paths) ?? ensureGatewayTokenSync(paths);
      process.stdout.write(
        `${JSON.stringify({
          version: CLAW_VERSION,
          running: Boolean(found),
          ...(found ? { port: found.info.port, bind: found.info.bind } : {}),
          token,
        })}\n`,
      );
      return 0;
    }
    case 'install': {
      const { currentServiceEnvironment, installService } = await daemon();
      const env = currentServiceEnvironment();
      const outcome = installService(paths, env, { enable: !input.argv.includes('--no-enable') });
      if (flags.json) {
        printJson(outcome);
        return outcome.enabled || input.argv.includes('--no-enable') ? 0 : 1;
      }
      process.stdout.write(`wrote ${outcome.path}\n`);
      for (const step of outcome.steps) process.stdout.write(`$ ${step.command}${step.code === 0 ? '' : `  → failed (${step.code}): ${step.output}`}\n`);
      if (outcome.enabled) process.stdout.write(`the gateway is now supervised by ${outcome.kind} (restarts on crash or hang)\n`);
      else if (!input.argv.includes('--no-enable')) {
        process.stderr.write(`claw: could not enable the ${outcome.kind} service; the file is written — enable it by hand with the command above.\n`);
        return 1;
      }
      return 0;
    }
    case 'uninstall': {
      const { currentServiceEnvironment, uninstallService } = await daemon();
      const outcome = uninstallService(currentServiceEnvironment());
      if (flags.json) printJson(outcome);
      else process.stdout.write(outcome.removed ? `removed ${outcome.path}\n` : `no service was installed (${outcome.path})\n`);
      return 0;
    }
    case 'token':
      return tokenCommand(paths, rest, input.argv, flags.json);
    default:
      process.stderr.write(`claw gateway: ${action ? `unknown action "${action}"` : 'missing action'}.\n${usage}\n`);
      return 2;
  }
};

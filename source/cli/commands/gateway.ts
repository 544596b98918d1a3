import { CLAW_VERSION, statePaths } from '../../config/index.js';
import { ensureGatewayTokenSync, loadConfig, readGatewayTokenSync } from '../../config/index.js';
import { findLocalGateway, restartGateway, startGatewayDetached, stopGateway } from '../../client/index.js';
import type { CommandRun } from '../command.js';
import { printJson } from '../format.js';
import { run as runStatus } from './status.js';

// The daemon (server, SQLite, providers) loads only for the actions that run or install it.
const daemon = () => import('../../daemon/index.js');

const usage = 'Usage: claw gateway run|start|stop|restart|status|token|connect-info|install|uninstall [--port N] [--json]';

export const run: CommandRun = async (input) => {
  const [action, ...rest] = input.args;
  const paths = statePaths();
  const { flags } = input;
  switch (action) {
    case 'run':
      await (await daemon()).runGatewayDaemon({
        paths,
        echo: Boolean(process.stdout.isTTY),
        ...(flags.port !== undefined ? { port: flags.port } : {}),
        ...(flags.bind !== undefined ? { bind: flags.bind } : {}),
      });
      // The daemon keeps the process alive; its signal handlers set the exit code.
      return new Promise<number>(() => undefined);
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
      try {
        loadConfig(paths.config);
      } catch (error) {
        process.stderr.write(`claw: not restarting; the gateway keeps running on its last good config.\n${error instanceof Error ? error.message : String(error)}\n`);
        return 1;
      }
      const gateway = await restartGateway(paths);
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
      process.stdout.write(`${JSON.stringify({
        version: CLAW_VERSION,
        running: Boolean(found),
        ...(found ? { port: found.info.port, bind: found.info.bind } : {}),
        token,
      })}\n`);
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
    case 'token': {
      const token = readGatewayTokenSync(paths) ?? ensureGatewayTokenSync(paths);
      process.stdout.write(`${token}\n`);
      return 0;
    }
    default:
      process.stderr.write(`claw gateway: ${action ? `unknown action "${action}"` : 'missing action'}.\n${usage}\n`);
      return 2;
  }
};

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, statePaths } from '../../config/index.js';
import {
  browserSecretsFile,
  CHROMIUM_MISSING,
  describeExecSandbox,
  execSandboxFor,
  findChromium,
  readBrowserSecrets,
  writeBrowserSecret,
} from '../../tools/index.js';
import type { CommandRun } from '../command.js';
import { printJson } from '../format.js';
import { readSecretValue } from '../secret-input.js';

const usage = `Usage:
  claw browser [status] [--json]       Chromium, the sandbox, the agents' profiles and the settings
  claw browser secret set NAME         store a value the agent types with "secret:NAME" (asked hidden; read from stdin when piped)
  claw browser secret list             the stored names (never the values)
  claw browser secret remove NAME`;

function fail(text: string, code = 2): number {
  process.stderr.write(`claw browser: ${text}\n${usage}\n`);
  return code;
}

export const run: CommandRun = async ({ args, flags }) => {
  const [action = 'status', sub, name] = args;
  const paths = statePaths();
  if (action === 'secret') {
    switch (sub) {
      case 'set': {
        if (!name) return fail('secret set needs a NAME');
        const value = await readSecretValue(name);
        if (!value) return fail('the value is empty: nothing stored');
        try {
          writeBrowserSecret(paths, name, value);
        } catch (error) {
          return fail((error as Error).message);
        }
        process.stdout.write(`Stored "${name}" in ${browserSecretsFile(paths)} (0600). The agent fills it with browser type {ref, text: "secret:${name}"}.\n`);
        return 0;
      }
      case 'list': {
        const names = Object.keys(readBrowserSecrets(paths)).sort();
        if (flags.json) printJson({ names });
        else process.stdout.write(names.length > 0 ? `${names.join('\n')}\n` : 'No browser secrets stored. Add one with `claw browser secret set NAME`.\n');
        return 0;
      }
      case 'remove': {
        if (!name) return fail('secret remove needs a NAME');
        if (!(name in readBrowserSecrets(paths))) return fail(`no secret named "${name}"`, 1);
        writeBrowserSecret(paths, name, undefined);
        process.stdout.write(`Removed "${name}".\n`);
        return 0;
      }
      default:
        return fail(`unknown secret action "${sub ?? ''}"`);
    }
  }
  if (action !== 'status') return fail(`unknown action "${action}"`);
  const config = loadConfig(paths.config);
  const settings = config.tools.browser;
  const chromium = findChromium(settings.executablePath);
  const sandbox = describeExecSandbox(execSandboxFor(config, paths));
  const root = join(paths.root, 'browser');
  const profiles = existsSync(root) ? readdirSync(root).filter((entry) => existsSync(join(root, entry, 'profile'))) : [];
  const status = {
    enabled: settings.enabled,
    chromium: chromium && existsSync(chromium) ? chromium : null,
    sandboxed: sandbox.sandboxed,
    profiles,
    secrets: Object.keys(readBrowserSecrets(paths)).length,
    evaluate: settings.evaluate,
    sites: settings.sites,
  };
  if (flags.json) {
    printJson(status);
    return 0;
  }
  const lines = [
    `browser     ${settings.enabled ? 'on (starts at the first call)' : 'off (tools.browser.enabled is false)'}`,
    `chromium    ${status.chromium ?? (settings.executablePath ? `${settings.executablePath} does not exist: fix tools.browser.executablePath` : CHROMIUM_MISSING)}`,
    `sandbox     ${sandbox.sandboxed ? 'inside bubblewrap' : sandbox.text}`,
    `profiles    ${profiles.length > 0 ? profiles.join(', ') : 'none yet'} (${root})`,
    `secrets     ${status.secrets} stored (claw browser secret list)`,
    `evaluate    ${settings.evaluate ? 'on, each call approved' : 'off'}`,
    `sites       ${
      Object.entries(settings.sites)
        .map(([site, rule]) => `${site} ${rule}`)
        .join(', ') || 'no rules (every public site allowed)'
    }`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return settings.enabled && !status.chromium ? 1 : 0;
};

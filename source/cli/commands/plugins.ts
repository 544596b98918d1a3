import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { loadConfig, statePaths, type StatePaths } from '../../config/index.js';
import {
  CLAW_PLUGIN_API,
  describeContributions,
  describePermissions,
  disablePlugin,
  grantPlugin,
  inspectPlugin,
  installedIds,
  installPlugin,
  pluginInfo,
  pluginPaths,
  readPluginSecrets,
  recordStatus,
  removePlugin,
  writePluginSecret,
} from '../../plugins/index.js';
import type { PluginInfo } from '../../protocol/index.js';
import { describeExecSandbox, execSandboxFor } from '../../tools/index.js';
import type { CommandRun } from '../command.js';
import { printJson } from '../format.js';
import { readSecretValue } from '../secret-input.js';

const usage = `Usage:
  claw plugins list [--json]             installed plugins: state, contributions, grants, last error
  claw plugins add PATH|FILE.tgz|SPEC    install (not enable) from a folder, a tarball or an npm spec
  claw plugins enable ID [--yes]         grant the permissions it asks for and run it
  claw plugins disable ID                stop it; its grant is kept
  claw plugins remove ID                 stop and delete it, its grant and its storage
  claw plugins restart ID                start a quarantined plugin again
  claw plugins logs ID [--lines N]       its log (stderr, ctx.log, quarantines)
  claw plugins doctor [ID]               API range, lock, grants, sandbox and process health
  claw plugins secret set ID NAME        store a secret it declared (asked hidden; read from stdin when piped)
  claw plugins secret list ID            the names stored and declared (never the values)
  claw plugins secret remove ID NAME`;

function fail(text: string, code = 2): number {
  process.stderr.write(`claw plugins: ${text}\n`);
  return code;
}

function options(argv: readonly string[]): { words: string[]; yes: boolean; lines: number } | string {
  const rest = argv.slice(argv.indexOf('plugins') + 1);
  const words: string[] = [];
  let yes = false;
  let lines = 50;
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i] as string;
    if (arg === '--yes' || arg === '-y') yes = true;
    else if (arg === '--json') continue;
    else if (arg === '--lines' || arg === '-n') {
      lines = Number(rest[(i += 1)]);
      if (!Number.isInteger(lines) || lines <= 0) return '--lines needs a positive number.';
    } else if (arg.startsWith('-')) return `unknown option ${arg}.`;
    else words.push(arg);
  }
  return { words, yes, lines };
}

/** Tells a running gateway to re-read plugins; says so when none runs. */
async function reloadGateway(paths: StatePaths): Promise<PluginInfo[] | undefined> {
  const { connectLocal, findLocalGateway } = await import('../../client/index.js');
  if (!findLocalGateway(paths)) return undefined;
  const client = await connectLocal(paths);
  try {
    return (await client.request('plugins.reload', {})).plugins;
  } finally {
    client.close();
  }
}

async function gatewayList(paths: StatePaths): Promise<PluginInfo[] | undefined> {
  const { connectLocal, findLocalGateway } = await import('../../client/index.js');
  if (!findLocalGateway(paths)) return undefined;
  const client = await connectLocal(paths);
  try {
    return (await client.request('plugins.list', {})).plugins;
  } finally {
    client.close();
  }
}

function printPlugins(plugins: readonly PluginInfo[], live: boolean): void {
  if (plugins.length === 0) {
    process.stdout.write('No plugins installed. Add one with `claw plugins add PATH|FILE.tgz|SPEC`.\n');
    return;
  }
  for (const plugin of plugins) {
    const state = !live && plugin.state === 'starting' ? 'enabled (runs with the gateway)' : plugin.state;
    process.stdout.write(`${plugin.id} ${plugin.version}  ${state}${plugin.pid ? `  pid ${plugin.pid}` : ''}\n`);
    if (plugin.description) process.stdout.write(`  ${plugin.description}\n`);
    for (const line of plugin.contributes) process.stdout.write(`  ${line}\n`);
    for (const line of plugin.grants ?? []) process.stdout.write(`  granted ${line}\n`);
    if (plugin.error) process.stdout.write(`  ! ${plugin.error}\n`);
  }
  if (!live) process.stdout.write('\nNo gateway is running: plugins start with it (`claw gateway start`).\n');
}

async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(?:es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

function afterChange(live: PluginInfo[] | undefined, id: string): string {
  if (!live) return 'No gateway is running; it applies this when it starts.';
  const plugin = live.find((entry) => entry.id === id);
  return plugin ? `The gateway applied it: ${plugin.state}${plugin.error ? ` (${plugin.error})` : ''}.` : 'The gateway applied it.';
}

export const run: CommandRun = async ({ flags, argv }) => {
  const parsed = options(argv);
  if (typeof parsed === 'string') return fail(`${parsed}\n${usage}`);
  const [action = 'list', target] = parsed.words;
  const paths = statePaths();
  if (action === 'secret') return secret(paths, parsed.words.slice(1), flags.json);
  const plugins = pluginPaths(paths);
  const needId = (): string | undefined => {
    if (!target) return undefined;
    return installedIds(plugins).includes(target) ? target : undefined;
  };

  switch (action) {
    case 'list': {
      const live = await gatewayList(paths);
      const list = live ?? installedIds(plugins).map((id) => pluginInfo(inspectPlugin(plugins, id)));
      if (flags.json) printJson({ plugins: list, gateway: live !== undefined });
      else printPlugins(list, live !== undefined);
      return 0;
    }
    case 'add': {
      if (!target) return fail(`add needs a folder, a .tgz or an npm spec.\n${usage}`);
      let result: ReturnType<typeof installPlugin>;
      try {
        result = installPlugin(plugins, target);
      } catch (error) {
        return fail((error as Error).message, 1);
      }
      const { manifest } = result;
      const lines = [
        `${result.updated ? 'Updated' : 'Installed'} ${manifest.id} ${manifest.version} in ${plugins.dir(manifest.id)} (sha256 ${result.sha256.slice(0, 16)}… pinned in plugins.lock).`,
        ...describeContributions(manifest.contributes, manifest.id).map((line) => `  contributes ${line}`),
        ...describePermissions(manifest.permissions).map((line) => `  asks for ${line}`),
      ];
      if (result.widened.length > 0)
        lines.push(`This version asks for more than was granted (${result.widened.join(', ')}): it stays off until \`claw plugins enable ${manifest.id}\`.`);
      else if (!result.updated) lines.push(`Installed is not enabled: \`claw plugins enable ${manifest.id}\` grants these permissions and runs it.`);
      const live = await reloadGateway(paths);
      if (flags.json) printJson({ id: manifest.id, version: manifest.version, updated: result.updated, widened: result.widened, sha256: result.sha256 });
      else process.stdout.write(`${lines.join('\n')}\n${result.updated ? `${afterChange(live, manifest.id)}\n` : ''}`);
      return 0;
    }
    case 'enable': {
      const id = needId();
      if (!id) return fail(target ? `no plugin "${target}" is installed (\`claw plugins list\`).` : `enable needs a plugin id.\n${usage}`, target ? 1 : 2);
      const record = inspectPlugin(plugins, id);
      if (record.problem || !record.manifest) return fail(`${id} cannot run: ${record.problem}`, 1);
      // What it would hook into matters as much as its permissions: a message:received hook reads every message.
      const contributes = describeContributions(record.manifest.contributes, id).map((line) => `  ${line}\n`);
      const asks = describePermissions(record.manifest.permissions).map((line) => `  ${line}\n`);
      process.stdout.write(`${id} ${record.manifest.version} contributes:\n${contributes.join('') || '  nothing\n'}and asks for:\n${asks.join('')}`);
      if (!parsed.yes && !process.stdin.isTTY) return enableThroughGateway(paths, id);
      if (!parsed.yes) {
        if (!(await confirm('Grant these permissions and run it? [y/N] '))) {
          process.stdout.write('Not enabled.\n');
          return 1;
        }
      }
      grantPlugin(plugins, id, record.manifest.permissions, Date.now());
      const live = await reloadGateway(paths);
      process.stdout.write(`Enabled ${id}. ${afterChange(live, id)}\n`);
      return 0;
    }
    case 'disable': {
      const id = needId();
      if (!id) return fail(target ? `no plugin "${target}" is installed.` : `disable needs a plugin id.\n${usage}`, target ? 1 : 2);
      const changed = disablePlugin(plugins, id);
      const live = await reloadGateway(paths);
      process.stdout.write(changed ? `Disabled ${id}. ${afterChange(live, id)}\n` : `${id} was not enabled.\n`);
      return 0;
    }
    case 'remove': {
      const id = needId();
      if (!id) return fail(target ? `no plugin "${target}" is installed.` : `remove needs a plugin id.\n${usage}`, target ? 1 : 2);
      removePlugin(plugins, id);
      await reloadGateway(paths);
      process.stdout.write(`Removed ${id}, its grant and its storage.\n`);
      return 0;
    }
    case 'restart': {
      const id = needId();
      if (!id) return fail(target ? `no plugin "${target}" is installed.` : `restart needs a plugin id.\n${usage}`, target ? 1 : 2);
      const { connectLocal, findLocalGateway } = await import('../../client/index.js');
      if (!findLocalGateway(paths)) return fail('no gateway is running; plugins start with it (`claw gateway start`).', 1);
      const client = await connectLocal(paths);
      try {
        const { plugin } = await client.request('plugins.restart', { id });
        if (flags.json) printJson({ plugin });
        else process.stdout.write(`${id}: ${plugin.state}${plugin.error ? ` (${plugin.error})` : ''}\n`);
        return plugin.state === 'running' ? 0 : 1;
      } finally {
        client.close();
      }
    }
    case 'logs': {
      const id = needId();
      if (!id) return fail(target ? `no plugin "${target}" is installed.` : `logs needs a plugin id.\n${usage}`, target ? 1 : 2);
      const file = plugins.log(id);
      if (!existsSync(file)) {
        process.stdout.write(`${id} has logged nothing yet (${file}).\n`);
        return 0;
      }
      const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
      process.stdout.write(`${lines.slice(-parsed.lines).join('\n')}\n`);
      return 0;
    }
    case 'doctor':
      return doctor(paths, target, flags.json);
    default:
      return fail(`unknown action "${action}".\n${usage}`);
  }
};

/** `secret set|list|remove`: values a plugin reads with ctx.secrets.get, kept 0600 under credentials/; a running plugin restarts to get them. */
async function secret(paths: StatePaths, words: readonly string[], json: boolean): Promise<number> {
  const [sub, id, name] = words;
  const plugins = pluginPaths(paths);
  if (!id || !installedIds(plugins).includes(id))
    return fail(id ? `no plugin "${id}" is installed.` : `secret ${sub ?? 'set'} needs a plugin id.\n${usage}`, id ? 1 : 2);
  const declared = inspectPlugin(plugins, id, { verifyHash: false }).manifest?.permissions.secrets ?? [];
  switch (sub) {
    case 'list': {
      const stored = Object.keys(readPluginSecrets(plugins, id)).sort();
      if (json) printJson({ declared, stored });
      else
        for (const entry of declared)
          process.stdout.write(`${entry}  ${stored.includes(entry) ? 'stored' : 'not stored (read from the gateway environment, if set there)'}\n`);
      return 0;
    }
    case 'set':
    case 'remove': {
      if (!name) return fail(`secret ${sub} needs a NAME.\n${usage}`);
      if (!declared.includes(name)) return fail(`${id} does not declare the secret "${name}" (it declares: ${declared.join(', ') || 'none'}).`, 1);
      const value = sub === 'set' ? await readSecretValue(name) : undefined;
      if (sub === 'set' && !value) return fail('the value is empty: nothing stored.');
      writePluginSecret(plugins, id, name, value);
      const restarted = await restartIfRunning(paths, id);
      process.stdout.write(
        `${sub === 'set' ? `Stored "${name}" for ${id} in ${plugins.secrets(id)} (0600)` : `Removed "${name}" for ${id}`}.${restarted ? ' The plugin was restarted to read it.' : ''}\n`,
      );
      return 0;
    }
    default:
      return fail(`unknown secret action "${sub ?? ''}".\n${usage}`);
  }
}

async function restartIfRunning(paths: StatePaths, id: string): Promise<boolean> {
  const live = await gatewayList(paths);
  if (live?.find((plugin) => plugin.id === id)?.state !== 'running') return false;
  const { connectLocal } = await import('../../client/index.js');
  const client = await connectLocal(paths);
  try {
    await client.request('plugins.restart', { id });
    return true;
  } finally {
    client.close();
  }
}

/**
 * Off a terminal and without --yes, the owner answers where approvals are
 * answered: the running gateway raises one (the TUI prompts for it) and this
 * waits for the decision.
 */
async function enableThroughGateway(paths: StatePaths, id: string): Promise<number> {
  const { connectLocal, findLocalGateway } = await import('../../client/index.js');
  if (!findLocalGateway(paths))
    return fail('not enabled: grant these permissions with --yes, answer on a terminal, or run a gateway and approve it in the TUI.', 1);
  const client = await connectLocal(paths);
  try {
    client.on('approval.requested', ({ approval }) => {
      if (approval.kind === 'plugin' && approval.command.startsWith(`enable plugin ${id} `))
        process.stderr.write(`claw plugins: waiting for the owner to approve ${approval.id} in the TUI (or \`claw approvals approve ${approval.id}\`).\n`);
    });
    const { approved, plugin } = await client.request('plugins.enable', { id }, { timeoutMs: APPROVAL_WAIT_MS });
    if (!approved) return fail(`not enabled: the owner did not approve ${id}.`, 1);
    process.stdout.write(`Enabled ${id}. The gateway applied it: ${plugin.state}${plugin.error ? ` (${plugin.error})` : ''}.\n`);
    return 0;
  } finally {
    client.close();
  }
}

/** Approvals expire after 30 minutes; the request outlives that by a little so the expiry is what answers. */
const APPROVAL_WAIT_MS = 31 * 60_000;

async function doctor(paths: StatePaths, only: string | undefined, json: boolean): Promise<number> {
  const plugins = pluginPaths(paths);
  const ids = only ? [only] : installedIds(plugins);
  const sandbox = describeExecSandbox(execSandboxFor(loadConfig(paths.config), paths));
  const live = await gatewayList(paths);
  const checks = ids.map((id) => {
    const record = inspectPlugin(plugins, id);
    const running = live?.find((plugin) => plugin.id === id);
    const problems = [
      ...(record.problem ? [record.problem] : []),
      ...(record.widened.length > 0 ? [recordStatus(record).error as string] : []),
      ...(running?.state === 'error' && running.error && running.error !== record.problem ? [running.error] : []),
    ];
    return {
      id,
      api: record.manifest ? `${record.manifest.clawApi} (claw speaks ${CLAW_PLUGIN_API})` : 'unknown',
      lock: record.lock ? (record.problem?.startsWith('plugins.lock') ? 'MISMATCH' : 'ok') : 'missing',
      grant: record.grant ? (record.grant.enabled ? 'enabled' : 'disabled') : 'not granted',
      process: running ? `${running.state}${running.pid ? ` (pid ${running.pid})` : ''}` : live ? 'not running' : 'no gateway',
      ok: problems.length === 0,
      problems,
    };
  });
  if (json) printJson({ sandbox: sandbox.text, plugins: checks });
  else {
    process.stdout.write(`sandbox: ${sandbox.text}${sandbox.sandboxed ? '' : ' — plugins need it and will not start'}\n`);
    if (checks.length === 0) process.stdout.write('No plugins installed.\n');
    for (const check of checks) {
      process.stdout.write(`${check.ok ? 'ok  ' : 'FAIL'} ${check.id}: api ${check.api}; lock ${check.lock}; ${check.grant}; process ${check.process}\n`);
      for (const problem of check.problems) process.stdout.write(`     ${problem}\n`);
    }
  }
  return checks.every((check) => check.ok) && sandbox.sandboxed ? 0 : 1;
}

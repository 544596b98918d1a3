import { readGatewayTokenSync, loadConfig, readRawConfig, statePaths, writeRawConfig, type ClawConfig, type StatePaths } from '../../config/index.js';
import type { HookInfo } from '../../protocol/index.js';
import type { CommandRun } from '../command.js';
import { formatDuration, printJson } from '../format.js';

const usage = `Usage:
  claw hooks [list] [--json]            installed hooks, whether they run, last error
  claw hooks check [--json]             validate every HOOK.md and its requirements
  claw hooks enable NAME | disable NAME
  claw hooks token                      print the webhook token (not the gateway token)
  claw hooks test ROUTE --json '{…}'    POST a sample to /hooks/ROUTE (wake, agent or a mapping name)`;

function fail(text: string, code = 2): number {
  process.stderr.write(`claw hooks: ${text}\n`);
  return code;
}

interface Listing {
  gateway: boolean;
  hooks: HookInfo[];
  invalid: Array<{ dir: string; source: string; error: string }>;
  shadowed: Array<{ name: string; dir: string; by: string }>;
}

/** What the hooks look like without a gateway: same discovery and checks, no run counts. */
async function offlineListing(config: ClawConfig, paths: StatePaths): Promise<Listing> {
  const { discoverHooksSync, hookRoots, hookBlocked, hookEnabled, unmetRequirements } = await import('../../hooks/index.js');
  const { probeSandbox } = await import('../../tools/index.js');
  const discovery = discoverHooksSync(hookRoots(config, paths));
  const hooks = discovery.hooks.map((definition): HookInfo => {
    const enabled = hookEnabled(definition, config.hooks);
    const blocked = hookBlocked(definition, config.hooks);
    const entry = config.hooks.entries[definition.manifest.name];
    const env = { PATH: process.env.PATH, ...entry?.env };
    const unsandboxed = definition.handler.kind === 'command' ? unsandboxedReason(entry?.sandbox ?? true, definition.manifest.name, probeSandbox) : undefined;
    return {
      name: definition.manifest.name,
      description: definition.manifest.description,
      source: definition.source,
      dir: definition.dir,
      events: definition.manifest.events,
      handler: definition.handler.kind,
      enabled,
      unmet: enabled ? unmetRequirements(definition.manifest, env) : [],
      ...(blocked ? { blocked } : {}),
      ...(unsandboxed ? { unsandboxed } : {}),
      runs: 0,
      failures: 0,
    };
  });
  return { gateway: false, hooks, invalid: discovery.invalid, shadowed: discovery.shadowed };
}

/** Why a command hook would run outside the sandbox, as the gateway would say it. */
function unsandboxedReason(sandbox: boolean, name: string, probeSandbox: () => { kind: string; reason?: string }): string | undefined {
  if (!sandbox) return `hooks.entries.${name}.sandbox is false: it runs as the gateway's user`;
  const status = probeSandbox();
  return status.kind === 'none' ? `no sandbox can start here (${status.reason ?? 'unknown'})` : undefined;
}

async function listing(paths: StatePaths): Promise<Listing> {
  const config = loadConfig(paths.config);
  const { connectLocal, findLocalGateway } = await import('../../client/index.js');
  if (!findLocalGateway(paths)) return offlineListing(config, paths);
  const client = await connectLocal(paths);
  try {
    return { gateway: true, ...(await client.request('hooks.list', {})) };
  } finally {
    client.close();
  }
}

function stateOf(hook: HookInfo): string {
  if (hook.blocked) return 'held';
  if (!hook.enabled) return 'disabled';
  if (hook.unmet.length > 0) return 'unmet';
  return 'on';
}

function printListing(list: Listing): void {
  if (list.hooks.length === 0) process.stdout.write('No hooks installed. Put a folder with a HOOK.md in ~/.claw/hooks or <workspace>/hooks.\n');
  const now = Date.now();
  for (const hook of list.hooks) {
    process.stdout.write(`${hook.name.padEnd(22)} ${stateOf(hook).padEnd(9)} ${hook.source.padEnd(10)} ${hook.events.join(', ')}\n`);
    process.stdout.write(`  ${hook.description}\n`);
    if (hook.blocked) process.stdout.write(`  not running: ${hook.blocked}\n`);
    if (hook.unsandboxed) process.stdout.write(`  runs unsandboxed: ${hook.unsandboxed}\n`);
    for (const reason of hook.unmet) process.stdout.write(`  not running: ${reason}\n`);
    if (list.gateway) process.stdout.write(`  runs ${hook.runs}, failures ${hook.failures}\n`);
    if (hook.lastError)
      process.stdout.write(`  last error ${formatDuration(Math.max(0, now - hook.lastError.at))} ago on ${hook.lastError.event}: ${hook.lastError.message}\n`);
  }
  for (const bad of list.invalid) process.stdout.write(`invalid: ${bad.error}\n`);
  for (const hidden of list.shadowed) process.stdout.write(`shadowed: ${hidden.dir} (a hook named ${hidden.name} at ${hidden.by} wins)\n`);
  if (!list.gateway) process.stdout.write('\nNo gateway is running: run counts and last errors appear once it is (`claw gateway start`).\n');
}

async function setEnabled(paths: StatePaths, name: string | undefined, enabled: boolean): Promise<number> {
  if (!name) return fail(`${enabled ? 'enable' : 'disable'} needs a hook NAME (see \`claw hooks list\`).`);
  const { discoverHooksSync, hookRoots } = await import('../../hooks/index.js');
  const discovery = discoverHooksSync(hookRoots(loadConfig(paths.config), paths));
  const hook = discovery.hooks.find((definition) => definition.manifest.name === name);
  if (!hook) return fail(`no hook named "${name}". Installed: ${discovery.hooks.map((h) => h.manifest.name).join(', ') || 'none'}.`, 1);
  const raw = readRawConfig(paths.config);
  const hooks = (raw.hooks ?? {}) as Record<string, unknown>;
  const entries = (hooks.entries ?? {}) as Record<string, Record<string, unknown>>;
  const { pin: _old, ...entry } = entries[name] ?? {};
  // Enabling approves these files: the hook runs only while its folder holds exactly them.
  const next = enabled ? { ...entry, enabled, pin: { dir: hook.dir, sha256: hook.digest } } : { ...entry, enabled };
  writeRawConfig(paths.config, { ...raw, hooks: { ...hooks, entries: { ...entries, [name]: next } } });
  const what = enabled ? `Enabled hook "${name}" (${hook.source}, ${hook.dir}, sha256 ${hook.digest.slice(0, 12)}…)` : `Disabled hook "${name}"`;
  process.stdout.write(
    `${what} in ${paths.config}; a running gateway picks it up at once.${enabled ? ' A change to its files holds it until you enable it again.' : ''}\n`,
  );
  for (const hidden of discovery.shadowed.filter((s) => s.name === name)) process.stdout.write(`(${hidden.dir} has the same name and does not run.)\n`);
  return 0;
}

/** The JSON after `--json` on the command line (the flag doubles as the sample's value here). */
function sampleFrom(argv: readonly string[]): string | undefined {
  const index = argv.indexOf('--json');
  const value = index === -1 ? undefined : argv[index + 1];
  return value !== undefined && !value.startsWith('--') ? value : undefined;
}

async function postSample(paths: StatePaths, route: string | undefined, sample: string | undefined): Promise<number> {
  if (!route) return fail(`test needs a ROUTE: wake, agent, or a mapping name.\n${usage}`);
  if (sample === undefined) return fail(`test needs a sample body: claw hooks test ${route} --json '{"message": "hello"}'`);
  try {
    JSON.parse(sample);
  } catch (error) {
    return fail(`the sample is not valid JSON (${error instanceof Error ? error.message : String(error)}).`);
  }
  const config = loadConfig(paths.config);
  const mapping = Object.entries(config.hooks.mappings).find(([name, m]) => name === route || m.path === route);
  const path = route === 'wake' || route === 'agent' ? route : mapping?.[1].path;
  if (!path) return fail(`no webhook route "${route}": use wake, agent or one of ${Object.keys(config.hooks.mappings).join(', ') || '(no mappings)'}.`, 1);
  const { findLocalGateway } = await import('../../client/index.js');
  const gateway = findLocalGateway(paths);
  if (!gateway) return fail('no gateway is running; start one with `claw gateway start`.', 1);
  const { ensureWebhookTokenSync, signWebhook } = await import('../../hooks/index.js');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (mapping?.[1].auth === 'signature') {
    const id = `msg_test_${Date.now()}`;
    const timestamp = Math.floor(Date.now() / 1000);
    Object.assign(headers, {
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(mapping[1].secret!, id, timestamp, sample),
    });
  } else {
    headers.authorization = `Bearer ${ensureWebhookTokenSync(paths, readGatewayTokenSync(paths))}`;
  }
  const response = await fetch(`${gateway.url.replace(/^ws/, 'http')}/hooks/${path}`, { method: 'POST', headers, body: sample });
  const text = await response.text();
  process.stdout.write(`${response.status} ${text}\n`);
  return response.ok ? 0 : 1;
}

export const run: CommandRun = async ({ args, flags, argv }) => {
  const [action = 'list', name] = args;
  const paths = statePaths();
  switch (action) {
    case 'list': {
      const list = await listing(paths);
      if (flags.json) printJson(list);
      else printListing(list);
      return 0;
    }
    case 'check': {
      const list = await offlineListing(loadConfig(paths.config), paths);
      const problems = list.invalid.length + list.hooks.filter((hook) => hook.enabled && hook.unmet.length > 0).length;
      if (flags.json) printJson({ ok: problems === 0, ...list });
      else {
        printListing(list);
        process.stdout.write(problems === 0 ? 'All hooks are valid.\n' : `${problems} problem(s) above.\n`);
      }
      return problems === 0 ? 0 : 1;
    }
    case 'enable':
    case 'disable':
      return setEnabled(paths, name, action === 'enable');
    case 'token': {
      const { ensureWebhookTokenSync } = await import('../../hooks/index.js');
      process.stdout.write(`${ensureWebhookTokenSync(paths, readGatewayTokenSync(paths))}\n`);
      return 0;
    }
    case 'test':
      return postSample(paths, name, sampleFrom(argv));
    default:
      return fail(`unknown action "${action}".\n${usage}`);
  }
};

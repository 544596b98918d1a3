import { readFileSync } from 'node:fs';
import { isAbsolute, join, normalize } from 'node:path';
import { z } from 'zod';
import { lazySchema, lifecycleEventNames } from '../protocol/index.js';

/** The plugin API this claw speaks; a manifest's `clawApi` range must include it. */
export const CLAW_PLUGIN_API = '1.0.0';
const MANIFEST_FILE = 'claw.plugin.json';

const pluginId = /^[a-z0-9][a-z0-9-]{0,62}$/;
const contributionName = /^[a-z][a-z0-9_-]{0,47}$/;
const hostPattern = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/i;
const envName = /^[A-Z_][A-Z0-9_]*$/;

const names = () => z.array(z.string().regex(contributionName, 'expected a lower-case name like weather_now')).default([]);

/** `claw.plugin.json`: read and checked without running a line of the plugin. */
const manifestSchema = lazySchema(() =>
  z.strictObject({
    id: z.string().regex(pluginId, 'expected a lower-case id like acme-weather'),
    version: z.string().regex(/^\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?$/, 'expected a version like 1.2.0'),
    clawApi: z.string().min(1),
    entry: z.string().min(1),
    description: z.string().default(''),
    contributes: z
      .strictObject({
        tools: names(),
        commands: names(),
        hooks: z.array(z.enum(lifecycleEventNames)).default([]),
        providers: names(),
        channels: names(),
      })
      .prefault({}),
    permissions: z
      .strictObject({
        net: z.array(z.string().regex(hostPattern, 'expected a host like api.example.com or *.example.com')).default([]),
        fs: z
          .strictObject({
            read: z.array(z.string().min(1)).default([]),
            write: z.array(z.string().min(1)).default([]),
          })
          .prefault({}),
        env: z.array(z.string().regex(envName, 'expected an environment variable name')).default([]),
        secrets: z.array(z.string().regex(envName, 'expected a secret name like ACME_KEY')).default([]),
      })
      .prefault({}),
    configSchema: z.record(z.string(), z.unknown()).optional(),
  }),
);

export type PluginManifest = z.infer<typeof manifestSchema>;
export type PluginPermissions = PluginManifest['permissions'];
export type PluginContributions = PluginManifest['contributes'];

class PluginManifestError extends Error {}

/** Reads and validates `dir/claw.plugin.json`; throws a PluginManifestError that says what to fix. */
export function readManifest(dir: string): PluginManifest {
  const file = join(dir, MANIFEST_FILE);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new PluginManifestError(
      code === 'ENOENT' ? `${dir} has no ${MANIFEST_FILE}: a plugin declares itself there.` : `${file} is not valid JSON: ${(error as Error).message}`,
    );
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
    throw new PluginManifestError(`${file}: ${issues}`);
  }
  const manifest = parsed.data;
  const entry = normalize(manifest.entry);
  if (isAbsolute(entry) || entry.startsWith('..')) throw new PluginManifestError(`${file}: entry must be a path inside the plugin, not "${manifest.entry}".`);
  if (!apiSatisfies(manifest.clawApi, CLAW_PLUGIN_API))
    throw new PluginManifestError(
      `${manifest.id} needs claw plugin API ${manifest.clawApi}; this claw speaks ${CLAW_PLUGIN_API}. Install a version of the plugin made for it.`,
    );
  return manifest;
}

/** A small semver range check for the forms manifests use: `^1`, `^1.2`, `~1.0`, `1`, `1.x`, `>=1.0.0`, `*`. */
export function apiSatisfies(range: string, version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return range
    .split('||')
    .map((part) => part.trim())
    .some((part) => {
      if (part === '*' || part === 'x') return true;
      const match = /^(\^|~|>=)?(\d+)(?:\.(\d+|x))?(?:\.(\d+|x))?$/.exec(part);
      if (!match) return false;
      const [, op, M, m] = match;
      const wantMajor = Number(M);
      const wantMinor = m === undefined || m === 'x' ? undefined : Number(m);
      if (op === '>=') return major > wantMajor || (major === wantMajor && minor >= (wantMinor ?? 0));
      if (op === '~' && wantMinor !== undefined) return major === wantMajor && minor === wantMinor;
      return major === wantMajor && (wantMinor === undefined || minor >= wantMinor);
    });
}

/** The permissions `wanted` asks for that `granted` does not cover ([] when covered). */
export function widenedPermissions(wanted: PluginPermissions, granted: PluginPermissions | undefined): string[] {
  const missing = (kind: string, want: readonly string[], have: readonly string[] = []) =>
    want.filter((item) => !have.includes(item)).map((item) => `${kind} ${item}`);
  return [
    ...missing('net', wanted.net, granted?.net),
    ...missing('fs.read', wanted.fs.read, granted?.fs.read),
    ...missing('fs.write', wanted.fs.write, granted?.fs.write),
    ...missing('env', wanted.env, granted?.env),
    ...missing('secret', wanted.secrets, granted?.secrets),
  ];
}

/** The permissions as the owner reads them before granting. */
export function describePermissions(permissions: PluginPermissions): string[] {
  const lines: string[] = [];
  lines.push(permissions.net.length > 0 ? `network: ${permissions.net.join(', ')} (through claw's address policy)` : 'network: none');
  if (permissions.fs.read.length > 0) lines.push(`read files: ${permissions.fs.read.join(', ')}`);
  if (permissions.fs.write.length > 0) lines.push(`write files: ${permissions.fs.write.join(', ')}`);
  if (permissions.env.length > 0) lines.push(`environment: ${permissions.env.join(', ')}`);
  if (permissions.secrets.length > 0) lines.push(`secrets: ${permissions.secrets.join(', ')}`);
  if (lines.length === 1) lines.push('files: none outside its own folder');
  return lines;
}

/** What the plugin contributes, one line each. */
export function describeContributions(contributes: PluginContributions, id: string): string[] {
  const lines: string[] = [];
  if (contributes.tools.length > 0) lines.push(`tools: ${contributes.tools.map((tool) => toolName(id, tool)).join(', ')}`);
  if (contributes.commands.length > 0) lines.push(`commands: ${contributes.commands.map((name) => `/${name}`).join(', ')}`);
  if (contributes.hooks.length > 0) lines.push(`hooks: ${contributes.hooks.join(', ')}`);
  if (contributes.providers.length > 0) lines.push(`providers: ${contributes.providers.join(', ')}`);
  if (contributes.channels.length > 0) lines.push(`channels: ${contributes.channels.join(', ')}`);
  return lines;
}

/** A plugin tool as the registry and the model know it. */
export function toolName(pluginId: string, tool: string): string {
  return `${pluginId}__${tool}`;
}

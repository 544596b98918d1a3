export const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_NAME_CHARS = 64;
export const MAX_DESCRIPTION_CHARS = 1024;

export interface SkillRequires {
  /** Every one of these must be on PATH. */
  bins: string[];
  /** At least one of these must be on PATH. */
  anyBins: string[];
  /** Set in the environment or in `skills.entries.<name>.env`. */
  env: string[];
  /** Node platform names (`linux`, `darwin`, `win32`); empty means any. */
  os: string[];
  /** Config keys (dotted) that must be set to a truthy value. */
  config: string[];
}

export interface SkillManifest {
  name: string;
  description: string;
  license?: string;
  allowedTools: string[];
  /** The whole `metadata` map as written. */
  metadata: Record<string, unknown>;
  /** Top-level keys claw does not read, kept for tools that do. */
  extra: Record<string, unknown>;
  requires: SkillRequires;
  /** Offered whatever its requirements say. */
  always: boolean;
  userInvocable: boolean;
  disableModelInvocation: boolean;
  argumentHint?: string;
}

export type ManifestResult = { ok: true; manifest: SkillManifest; warnings: string[] } | { ok: false; reason: string; name?: string };

const KNOWN_KEYS = new Set(['name', 'description', 'license', 'allowed-tools', 'metadata', 'user-invocable', 'disable-model-invocation', 'argument-hint']);

const OS_ALIASES: Record<string, string> = {
  macos: 'darwin',
  mac: 'darwin',
  osx: 'darwin',
  darwin: 'darwin',
  linux: 'linux',
  windows: 'win32',
  win32: 'win32',
  freebsd: 'freebsd',
  openbsd: 'openbsd',
};

function isMap(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

class ManifestError extends Error {}

function stringList(value: unknown, key: string): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  throw new ManifestError(`${key} must be a list of strings, e.g. [git, jq]`);
}

function flag(value: unknown, key: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  throw new ManifestError(`${key} must be true or false, not ${JSON.stringify(value)}`);
}

/** The claw-specific settings: `metadata.claw` first, then top-level keys, then `metadata.openclaw`. */
function clawSettings(data: Record<string, unknown>): Array<[Record<string, unknown>, string]> {
  const metadata = isMap(data.metadata) ? data.metadata : {};
  const layers: Array<[Record<string, unknown>, string]> = [];
  for (const key of ['claw', 'openclaw']) {
    const layer = metadata[key];
    if (layer === undefined) continue;
    if (!isMap(layer)) throw new ManifestError(`metadata.${key} must be a mapping`);
    layers.push([layer, `metadata.${key}`]);
  }
  layers.splice(layers[0]?.[1] === 'metadata.claw' ? 1 : 0, 0, [data, '']);
  return layers;
}

function pick(layers: Array<[Record<string, unknown>, string]>, key: string): [unknown, string] {
  for (const [layer, prefix] of layers) if (layer[key] !== undefined) return [layer[key], prefix ? `${prefix}.${key}` : key];
  return [undefined, key];
}

function requiresOf(layers: Array<[Record<string, unknown>, string]>): SkillRequires {
  const [raw, where] = pick(layers, 'requires');
  if (raw === undefined || raw === null) return { bins: [], anyBins: [], env: [], os: [], config: [] };
  if (!isMap(raw)) throw new ManifestError(`${where} must be a mapping like {bins: [git]}`);
  const os = stringList(raw.os, `${where}.os`).map((name) => {
    const platform = OS_ALIASES[name.toLowerCase()];
    if (!platform) throw new ManifestError(`${where}.os has "${name}"; use linux, darwin (macos) or win32 (windows)`);
    return platform;
  });
  return {
    bins: stringList(raw.bins, `${where}.bins`),
    anyBins: stringList(raw.anyBins, `${where}.anyBins`),
    env: stringList(raw.env, `${where}.env`),
    os,
    config: stringList(raw.config, `${where}.config`),
  };
}

/** Checks a parsed frontmatter against the Agent Skills format; `folder` is the skill folder's own name. */
export function readManifest(data: Record<string, unknown>, folder: string): ManifestResult {
  const { name, description } = data;
  if (name === undefined || name === null || name === '') return { ok: false, reason: `the frontmatter has no name; add \`name: ${folder}\`` };
  if (typeof name !== 'string') return { ok: false, reason: `name must be text, not ${JSON.stringify(name)}` };
  if (name.length > MAX_NAME_CHARS || !SKILL_NAME.test(name)) {
    return { ok: false, reason: `name "${name}" must be lowercase letters, digits and single hyphens (at most ${MAX_NAME_CHARS} characters)` };
  }
  if (typeof description !== 'string' || description.trim() === '') {
    return { ok: false, name, reason: 'the frontmatter has no description; say what the skill does and when to use it (at most 1024 characters)' };
  }
  if (description.length > MAX_DESCRIPTION_CHARS) {
    return {
      ok: false,
      name,
      reason: `the description is ${description.length} characters, over the limit of ${MAX_DESCRIPTION_CHARS}; shorten it and move details into the body`,
    };
  }
  try {
    if (data.metadata !== undefined && data.metadata !== null && !isMap(data.metadata)) throw new ManifestError('metadata must be a mapping of keys to values');
    if (data.license !== undefined && typeof data.license !== 'string') throw new ManifestError('license must be text');
    const layers = clawSettings(data);
    const [hint, hintKey] = pick(layers, 'argument-hint');
    if (hint !== undefined && typeof hint !== 'string') throw new ManifestError(`${hintKey} must be text, e.g. "<file> [pages]"`);
    const allowed = data['allowed-tools'];
    const manifest: SkillManifest = {
      name,
      description: description.trim(),
      ...(typeof data.license === 'string' ? { license: data.license } : {}),
      allowedTools: typeof allowed === 'string' ? allowed.split(/[\s,]+/).filter(Boolean) : stringList(allowed, 'allowed-tools'),
      metadata: isMap(data.metadata) ? data.metadata : {},
      extra: Object.fromEntries(Object.entries(data).filter(([key]) => !KNOWN_KEYS.has(key))),
      requires: requiresOf(layers),
      always: flag(...pick(layers, 'always')) ?? false,
      userInvocable: flag(...pick(layers, 'user-invocable')) ?? true,
      disableModelInvocation: flag(...pick(layers, 'disable-model-invocation')) ?? false,
      ...(typeof hint === 'string' ? { argumentHint: hint } : {}),
    };
    const warnings = name === folder ? [] : [`name "${name}" does not match its folder "${folder}"; rename one so they match`];
    return { ok: true, manifest, warnings };
  } catch (error) {
    if (error instanceof ManifestError) return { ok: false, name, reason: error.message };
    throw error;
  }
}

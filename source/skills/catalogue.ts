import type { ClawConfig } from '../config/index.js';
import type { FoundSkill, SkillSource } from './discovery.js';
import type { SkillManifest } from './manifest.js';
import { BinaryLookup, missingRequirements, type RequirementFacts } from './requirements.js';

export type SkillStatus =
  | { kind: 'ready' }
  | { kind: 'needs'; missing: string[] }
  | { kind: 'broken'; reason: string }
  | { kind: 'shadowed'; by: string }
  | { kind: 'disabled'; reason: string };

export interface SkillRecord {
  /** The frontmatter name, or the folder name when the frontmatter gives none. */
  name: string;
  source: SkillSource;
  dir: string;
  file: string;
  status: SkillStatus;
  warnings: string[];
  manifest?: SkillManifest;
  body?: string;
}

export interface ReadySkill extends SkillRecord {
  status: { kind: 'ready' };
  manifest: SkillManifest;
  body: string;
}

export function isReady(record: SkillRecord): record is ReadySkill {
  return record.status.kind === 'ready' && record.manifest !== undefined;
}

/** The status column of `claw skills list` and `/skills`. */
export function describeStatus(status: SkillStatus): string {
  switch (status.kind) {
    case 'ready':
      return 'ready';
    case 'needs':
      return `needs ${status.missing.join(', ')}`;
    case 'broken':
      return `broken: ${status.reason}`;
    case 'shadowed':
      return `shadowed by ${status.by}`;
    case 'disabled':
      return `disabled: ${status.reason}`;
  }
}

export interface CatalogueInput {
  found: readonly FoundSkill[];
  config: ClawConfig;
  agentId: string;
  facts: Omit<RequirementFacts, 'config'>;
}

function allowlistOf(config: ClawConfig, agentId: string): readonly string[] | undefined {
  return config.agents.list.find((agent) => agent.id === agentId)?.skills ?? config.agents.defaults.skills;
}

/**
 * Every skill found for one agent with its status, in precedence order. A
 * name seen twice in one root is a clash (both broken); a name seen again in
 * a lower root is shadowed by the first.
 */
export function buildCatalogue(input: CatalogueInput): SkillRecord[] {
  const { found, config, agentId } = input;
  const nameOf = (skill: FoundSkill): string => (skill.ok ? skill.manifest.name : (skill.name ?? skill.folder));
  const perRoot = new Map<string, FoundSkill[]>();
  for (const skill of found) {
    const key = `${skill.root}\0${nameOf(skill)}`;
    perRoot.set(key, [...(perRoot.get(key) ?? []), skill]);
  }
  const allowlist = allowlistOf(config, agentId);
  const bins = new BinaryLookup(input.facts.path);
  const facts: RequirementFacts = { ...input.facts, config };
  const winners = new Map<string, { root: string; file: string }>();
  return found.map((skill): SkillRecord => {
    const name = nameOf(skill);
    const base = { name, source: skill.source, dir: skill.dir, file: skill.file, warnings: skill.ok ? skill.warnings : [] };
    const parsed = skill.ok ? { manifest: skill.manifest, body: skill.body } : {};
    const winner = winners.get(name);
    if (winner && winner.root !== skill.root) return { ...base, ...parsed, status: { kind: 'shadowed', by: winner.file } };
    if (!winner) winners.set(name, { root: skill.root, file: skill.file });
    const rivals = perRoot.get(`${skill.root}\0${name}`)!.filter((other) => other !== skill);
    if (rivals.length > 0)
      return { ...base, ...parsed, status: { kind: 'broken', reason: `name clash: "${name}" is also declared by ${rivals.map((r) => r.file).join(', ')}` } };
    if (!skill.ok) return { ...base, status: { kind: 'broken', reason: skill.reason } };
    const entry = config.skills.entries[name];
    if (entry && !entry.enabled) return { ...base, ...parsed, status: { kind: 'disabled', reason: `skills.entries.${name}.enabled is false` } };
    if (allowlist && !allowlist.includes(name))
      return { ...base, ...parsed, status: { kind: 'disabled', reason: `not in the skills allowlist of agent ${agentId}` } };
    const missing = skill.manifest.always ? [] : missingRequirements(skill.manifest.requires, facts, bins, entry?.env ?? {});
    if (missing.length > 0) return { ...base, ...parsed, status: { kind: 'needs', missing } };
    return { ...base, ...parsed, status: { kind: 'ready' } };
  });
}

import type { SkillsPromptSnapshot } from '../agent/index.js';
import { buildCatalogue, describeStatus, isReady, type CatalogueInput, type ReadySkill, type SkillRecord } from './catalogue.js';
import { buildPromptBlock } from './prompt-block.js';

/** One agent's skills at one moment; never mutated, so a turn can keep it. */
export interface AgentSkills {
  agentId: string;
  /** Bumped on every rebuild, for clients that cache. */
  generation: number;
  /** Every skill found, in precedence order, with its status. */
  records: readonly SkillRecord[];
  ready: readonly ReadySkill[];
  prompt: SkillsPromptSnapshot;
}

/** Which ready skills go into the prompt, in the order the budget keeps them: `always` skills first. */
function promptCandidates(ready: readonly ReadySkill[]): ReadySkill[] {
  const offered = ready.filter((skill) => !skill.manifest.disableModelInvocation);
  return [...offered.filter((skill) => skill.manifest.always), ...offered.filter((skill) => !skill.manifest.always)];
}

export function buildAgentSkills(input: CatalogueInput & { generation: number; maxPromptChars: number }): AgentSkills {
  const records = buildCatalogue(input);
  const ready = records.filter(isReady);
  const block = buildPromptBlock(
    promptCandidates(ready).map((skill) => ({ name: skill.name, description: skill.manifest.description, location: skill.file })),
    input.maxPromptChars,
  );
  const notOffered = records.flatMap((record) => {
    if (record.status.kind === 'shadowed') return [];
    if (isReady(record)) return record.manifest.disableModelInvocation ? [{ name: record.name, reason: `user-only: /${record.name}` }] : [];
    return [{ name: record.name, reason: describeStatus(record.status) }];
  });
  return { agentId: input.agentId, generation: input.generation, records, ready, prompt: { ...block, notOffered } };
}

/** What changed between two snapshots of one agent, one line per skill (empty when nothing did). */
export function describeChanges(before: AgentSkills, after: AgentSkills): string[] {
  const old = new Map(before.records.map((record) => [record.file, record]));
  const lines: string[] = [];
  for (const record of after.records) {
    const previous = old.get(record.file);
    old.delete(record.file);
    const now = describeStatus(record.status);
    if (!previous) lines.push(`${record.name} added (${now})`);
    else if (describeStatus(previous.status) !== now || previous.name !== record.name) lines.push(`${record.name} is now ${now}`);
    else if (previous.manifest?.description !== record.manifest?.description || previous.body !== record.body) lines.push(`${record.name} was edited`);
  }
  for (const record of old.values()) lines.push(`${record.name} removed`);
  return lines;
}

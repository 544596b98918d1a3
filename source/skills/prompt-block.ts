export interface BlockSkill {
  name: string;
  description: string;
  /** The SKILL.md path the agent reads. */
  location: string;
}

export interface PromptBlock {
  block: string;
  form: 'full' | 'compact' | 'none';
  /** Names in the block, in order. */
  listed: string[];
  /** Names left out because even the compact form did not fit. */
  omitted: string[];
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function fullEntry(skill: BlockSkill): string {
  return `<skill>\n<name>${escapeXml(skill.name)}</name>\n<description>${escapeXml(skill.description)}</description>\n<location>${escapeXml(skill.location)}</location>\n</skill>`;
}

function compactEntry(skill: BlockSkill): string {
  return `<skill><name>${escapeXml(skill.name)}</name><location>${escapeXml(skill.location)}</location></skill>`;
}

const OPEN = '<available_skills>';
const OPEN_COMPACT = '<available_skills form="compact">';
const CLOSE = '</available_skills>';

function omissionNote(count: number): string {
  return `<!-- ${count} more skill${count === 1 ? ' is' : 's are'} not listed for lack of room (skills.limits.maxPromptChars); the user can see them with /skills -->`;
}

/**
 * The `<available_skills>` block within `maxChars`: every skill with its
 * description when that fits, else name + location only, else as many as fit
 * in the given order, with the rest named in `omitted`.
 */
export function buildPromptBlock(skills: readonly BlockSkill[], maxChars: number): PromptBlock {
  if (skills.length === 0) return { block: '', form: 'none', listed: [], omitted: [] };
  const full = [OPEN, ...skills.map(fullEntry), CLOSE].join('\n');
  if (full.length <= maxChars) return { block: full, form: 'full', listed: skills.map((s) => s.name), omitted: [] };
  const entries = skills.map(compactEntry);
  const compact = [OPEN_COMPACT, ...entries, CLOSE].join('\n');
  if (compact.length <= maxChars) return { block: compact, form: 'compact', listed: skills.map((s) => s.name), omitted: [] };
  const reserve = OPEN_COMPACT.length + CLOSE.length + omissionNote(skills.length).length + 3;
  let used = reserve;
  let kept = 0;
  while (kept < entries.length && used + entries[kept]!.length + 1 <= maxChars) {
    used += entries[kept]!.length + 1;
    kept += 1;
  }
  const omitted = skills.slice(kept).map((s) => s.name);
  const lines = [OPEN_COMPACT, ...entries.slice(0, kept), omissionNote(omitted.length), CLOSE];
  return { block: lines.join('\n'), form: 'compact', listed: skills.slice(0, kept).map((s) => s.name), omitted };
}

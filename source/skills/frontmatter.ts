import { parseYaml, YamlError } from './yaml.js';

export interface Frontmatter {
  data: Record<string, unknown>;
  body: string;
  /** 1-based line of SKILL.md where the body starts. */
  bodyLine: number;
}

/** Why a SKILL.md could not be read as frontmatter + body; the text says what to fix. */
export class FrontmatterError extends Error {
  override name = 'FrontmatterError';
}

/**
 * Splits `---\n<yaml>\n---\n<body>` and parses the YAML. The text must start
 * with the `---` line (a BOM is allowed), as other agents' loaders require.
 */
export function parseFrontmatter(text: string): Frontmatter {
  const source = text.replace(/^\uFEFF/, '');
  const lines = source.split('\n');
  if (lines[0]?.replace(/\r$/, '').trimEnd() !== '---') {
    throw new FrontmatterError('SKILL.md does not start with a "---" line; put the YAML frontmatter (name, description) between two "---" lines at the top');
  }
  const end = lines.findIndex((line, index) => index > 0 && /^(?:---|\.\.\.)\s*$/.test(line.replace(/\r$/, '')));
  if (end < 0) throw new FrontmatterError('the frontmatter is not closed: add a "---" line after the YAML');
  let data: unknown;
  try {
    data = parseYaml(lines.slice(1, end).join('\n'), 2);
  } catch (error) {
    if (error instanceof YamlError) throw new FrontmatterError(`invalid YAML in the frontmatter, ${error.message}`);
    throw error;
  }
  if (data === null) throw new FrontmatterError('the frontmatter is empty; it needs at least name and description');
  if (typeof data !== 'object' || Array.isArray(data)) throw new FrontmatterError('the frontmatter must be a YAML mapping (key: value lines), not a list or a single value');
  return { data: data as Record<string, unknown>, body: lines.slice(end + 1).join('\n').replace(/^\s*\n/, ''), bodyLine: end + 2 };
}

import { loadYamlSync } from '../config/index.js';

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
  const firstBreak = source.indexOf('\n');
  const firstLine = firstBreak < 0 ? source : source.slice(0, firstBreak);
  if (firstLine.trimEnd() !== '---') {
    throw new FrontmatterError('SKILL.md does not start with a "---" line; put the YAML frontmatter (name, description) between two "---" lines at the top');
  }
  // Only the frontmatter is split into lines: bodies can be long and are kept as one string.
  const closing = /^(?:---|\.\.\.)[ \t]*\r?$/m;
  const rest = source.slice(firstBreak + 1);
  const match = closing.exec(rest);
  if (!match) throw new FrontmatterError('the frontmatter is not closed: add a "---" line after the YAML');
  const yaml = rest.slice(0, match.index);
  const { parse: parseYaml, YAMLParseError } = loadYamlSync();
  let data: unknown;
  try {
    // The frontmatter starts on line 2 of SKILL.md; errors name the file's line, not the block's.
    data = parseYaml(yaml, { uniqueKeys: true, prettyErrors: true });
  } catch (error) {
    if (error instanceof YAMLParseError) {
      const line = (error.linePos?.[0]?.line ?? 0) + 1;
      const quoteHint = error.code === 'BLOCK_AS_IMPLICIT_KEY' || /nested mappings/i.test(error.message) ? ' (put a value that contains ": " in quotes)' : '';
      throw new FrontmatterError(`invalid YAML in the frontmatter, line ${line}: ${error.message.split(' at line ')[0]}${quoteHint}`);
    }
    throw error;
  }
  if (data === null) throw new FrontmatterError('the frontmatter is empty; it needs at least name and description');
  if (typeof data !== 'object' || Array.isArray(data))
    throw new FrontmatterError('the frontmatter must be a YAML mapping (key: value lines), not a list or a single value');
  const afterClosing = rest.indexOf('\n', match.index);
  const body = afterClosing < 0 ? '' : rest.slice(afterClosing + 1).replace(/^\s*\n/, '');
  const bodyLine = 3 + (yaml.match(/\n/g)?.length ?? 0);
  return { data: data as Record<string, unknown>, body, bodyLine };
}

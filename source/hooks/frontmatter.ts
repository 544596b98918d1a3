import { loadYamlSync } from '../config/index.js';

export type FrontValue = string | number | boolean | null | FrontValue[] | { [key: string]: FrontValue };

export class FrontmatterError extends Error {}

/** Splits a markdown file into its front matter (parsed with a real YAML parser) and body. */
export function parseFrontmatter(text: string): { data: { [key: string]: FrontValue }; body: string } {
  const normalised = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  if (!normalised.startsWith('---\n')) throw new FrontmatterError('the file must start with a "---" line opening its front matter');
  const end = normalised.indexOf('\n---', 3);
  if (end < 0) throw new FrontmatterError('the front matter is never closed: add a "---" line after it');
  const { parse, YAMLParseError } = loadYamlSync();
  let value: unknown;
  try {
    value = parse(normalised.slice(4, end + 1), { uniqueKeys: true, prettyErrors: true }) ?? {};
  } catch (error) {
    if (!(error instanceof YAMLParseError)) throw error;
    // The front matter starts on line 2 of the file.
    throw new FrontmatterError(`line ${(error.linePos?.[0]?.line ?? 0) + 1}: ${error.message.split(' at line ')[0]}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new FrontmatterError('the front matter must be "key: value" lines');
  const bodyStart = normalised.indexOf('\n', end + 4);
  return { data: value as { [key: string]: FrontValue }, body: bodyStart < 0 ? '' : normalised.slice(bodyStart + 1) };
}

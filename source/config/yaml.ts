import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

// Set by scripts/build.mjs: the bundle carries yaml as a CommonJS file of its
// own, dist/chunks/yaml.cjs, outside the chunk graph (the path resolves the
// same from dist/cli/ and dist/chunks/). From source/ it is the package.
declare const CLAW_BUNDLED_YAML: string | undefined;

export type YamlParser = Pick<typeof Yaml, 'parse' | 'YAMLParseError'>;

let parser: YamlParser | undefined;

/**
 * The YAML parser of HOOK.md and SKILL.md front matter, required on first use
 * rather than imported: 160 KB the gateway's start never runs (those files are
 * read once it listens), while a skill asked for sooner still parses at once.
 */
export function loadYamlSync(): YamlParser {
  parser ??= createRequire(import.meta.url)(typeof CLAW_BUNDLED_YAML === 'string' ? CLAW_BUNDLED_YAML : 'yaml') as YamlParser;
  return parser;
}

import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

// Set by scripts/build.mjs: the bundle carries yaml as a CommonJS file of its
// own, dist/chunks/yaml.cjs, outside the chunk graph (the path resolves the
// same from dist/cli/ and dist/chunks/). From source/ it is the package. In
// gateway-run.cjs it is `./vendor-yaml.cjs`, required through the bundle's
// own `require` (CLAW_BUNDLE_REQUIRE), which serves it from the code cache:
// compiled from source each start, the skills' and hooks' background
// start-up took ~20 ms longer.
declare const CLAW_BUNDLED_YAML: string | undefined;
declare const CLAW_BUNDLE_REQUIRE: NodeJS.Require | undefined;

export type YamlParser = Pick<typeof Yaml, 'parse' | 'YAMLParseError'>;

let parser: YamlParser | undefined;

/**
 * The YAML parser of HOOK.md and SKILL.md front matter, required on first use
 * rather than imported: 160 KB the gateway's start never runs (those files are
 * read once it listens), while a skill asked for sooner still parses at once.
 */
export function loadYamlSync(): YamlParser {
  const load = typeof CLAW_BUNDLE_REQUIRE === 'function' ? CLAW_BUNDLE_REQUIRE : createRequire(import.meta.url);
  parser ??= load(typeof CLAW_BUNDLED_YAML === 'string' ? CLAW_BUNDLED_YAML : 'yaml') as YamlParser;
  return parser;
}

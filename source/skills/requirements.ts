import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { getAtPath } from '../config/index.js';
import type { SkillRequires } from './manifest.js';

export interface RequirementFacts {
  /** PATH to search for binaries. */
  path: string;
  platform: string;
  env: Readonly<Record<string, string | undefined>>;
  config: unknown;
}

/** Answers "is this binary on PATH" once per name for a whole snapshot build. */
export class BinaryLookup {
  readonly #cache = new Map<string, boolean>();
  readonly #dirs: string[];

  constructor(path: string) {
    this.#dirs = path.split(delimiter).filter(Boolean);
  }

  has(name: string): boolean {
    const known = this.#cache.get(name);
    if (known !== undefined) return known;
    const found = this.#dirs.some((dir) => {
      const file = join(dir, name);
      try {
        accessSync(file, constants.X_OK);
        return statSync(file).isFile();
      } catch {
        return false;
      }
    });
    this.#cache.set(name, found);
    return found;
  }
}

/** What is missing for a skill to be offered, as short phrases (`bin jq`, `env GITHUB_TOKEN`, `os darwin`); empty when nothing is. */
export function missingRequirements(
  requires: SkillRequires,
  facts: RequirementFacts,
  bins: BinaryLookup,
  skillEnv: Readonly<Record<string, string>>,
): string[] {
  const missing: string[] = [];
  if (requires.os.length > 0 && !requires.os.includes(facts.platform)) missing.push(`os ${requires.os.join('|')} (this is ${facts.platform})`);
  for (const bin of requires.bins) if (!bins.has(bin)) missing.push(`bin ${bin}`);
  if (requires.anyBins.length > 0 && !requires.anyBins.some((bin) => bins.has(bin))) missing.push(`one of bins ${requires.anyBins.join(', ')}`);
  for (const name of requires.env) if (!facts.env[name] && !skillEnv[name]) missing.push(`env ${name}`);
  for (const key of requires.config) if (!getAtPath(facts.config, key)) missing.push(`config ${key}`);
  return missing;
}

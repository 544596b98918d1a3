import type { z } from 'zod';
import { configSchema } from '../../config/index.js';
import { editDistance } from '../help.js';

type Walkable = { shape?: Record<string, Walkable>; _zod?: { def?: { innerType?: Walkable; in?: Walkable; getter?: () => Walkable; type?: string } } };

/** The object shape under optional/default/prefault/pipe/lazy wrappers, if the schema is an object. */
function objectShape(schema: Walkable): Record<string, Walkable> | undefined {
  let node: Walkable | undefined = schema;
  for (let depth = 0; node && depth < 8; depth++) {
    if (node.shape && node._zod?.def?.type === 'object') return node.shape;
    node = node._zod?.def?.innerType ?? node._zod?.def?.in ?? node._zod?.def?.getter?.();
  }
  return undefined;
}

/** Every dotted key the config schema declares (objects and leaves; records stop the walk). */
export function knownConfigKeys(schema: Walkable = configSchema as unknown as Walkable, prefix = ''): string[] {
  const shape = objectShape(schema);
  if (!shape) return [];
  return Object.entries(shape).flatMap(([name, child]) => {
    const key = prefix ? `${prefix}.${name}` : name;
    return [key, ...knownConfigKeys(child, key)];
  });
}

/** A known key one or two edits from `key`, or one whose last part matches, for "did you mean". */
export function suggestConfigKey(key: string): string | undefined {
  let best: { key: string; distance: number } | undefined;
  for (const candidate of knownConfigKeys()) {
    const distance = editDistance(key, candidate);
    if (distance <= 2 && (!best || distance < best.distance)) best = { key: candidate, distance };
  }
  return best?.key;
}

/**
 * Why the schema refused the value just set, in one line about that key; or
 * undefined when the refusal is about some other part of the file.
 */
export function describeRefusal(error: z.ZodError, key: string, value: unknown): string | undefined {
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      const full = issue.keys.map((k) => (path ? `${path}.${k}` : k));
      const unknown = full.find((k) => k === key || key.startsWith(`${k}.`));
      if (!unknown) continue;
      const guess = suggestConfigKey(unknown);
      return `"${unknown}" is not a config key.${guess ? ` Did you mean ${guess}?` : ' `claw config get` shows the keys in force.'}`;
    }
    if (path === key || path.startsWith(`${key}.`) || key.startsWith(`${path}.`)) {
      return `${key} = ${JSON.stringify(value)} was refused: ${issue.message}${path !== key ? ` (at ${path})` : ''}.`;
    }
  }
  return undefined;
}

import { API_LIMITS } from '../providers/index.js';
import type { JsonSchemaObject } from './types.js';

type Schema = Record<string, unknown>;

/** What Anthropic accepts as a property key (OpenAI takes any); one bad key fails every request that lists the tool. */
const SAFE_KEY = API_LIMITS.anthropic.propertyKey ?? /^/;

/** How to put a call's arguments back under the names the tool declared. */
interface KeyMap {
  /** Wire key → declared key, at this object level. */
  renamed: Map<string, string>;
  /** Declared key → the map of that property's own schema. */
  properties: Map<string, KeyMap>;
  items?: KeyMap;
}

function isRecord(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function safeKey(key: string, taken: Set<string>): string {
  const base =
    key
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^a-zA-Z0-9_.-]/g, '_')
      .slice(0, 60) || '_';
  let candidate = base;
  for (let n = 2; taken.has(candidate); n += 1) candidate = `${base}_${n}`;
  taken.add(candidate);
  return candidate;
}

const combinators = new Set(['anyOf', 'oneOf', 'allOf']);

function merge(into: KeyMap, from: KeyMap): void {
  for (const [wire, key] of from.renamed) into.renamed.set(wire, key);
  for (const [key, inner] of from.properties) into.properties.set(key, inner);
  into.items ??= from.items;
}

function isEmpty(map: KeyMap): boolean {
  return map.renamed.size === 0 && map.properties.size === 0 && map.items === undefined;
}

/** Rewrites one schema node; returns the node and its map (undefined when nothing under it was renamed). */
function rewrite(schema: unknown): { schema: unknown; map: KeyMap | undefined } {
  if (Array.isArray(schema)) return { schema: schema.map((item) => rewrite(item).schema), map: undefined };
  if (!isRecord(schema)) return { schema, map: undefined };
  const map: KeyMap = { renamed: new Map(), properties: new Map() };
  const out: Schema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'properties' && isRecord(value)) {
      const taken = new Set(Object.keys(value).filter((key) => SAFE_KEY.test(key)));
      const properties: Schema = {};
      for (const [key, sub] of Object.entries(value)) {
        const wire = SAFE_KEY.test(key) ? key : safeKey(key, taken);
        if (wire !== key) map.renamed.set(wire, key);
        const inner = rewrite(sub);
        properties[wire] = inner.schema;
        if (inner.map) map.properties.set(key, inner.map);
      }
      out.properties = properties;
    } else if (keyword === 'items') {
      const inner = rewrite(value);
      out.items = inner.schema;
      if (inner.map) map.items = inner.map;
    } else if (combinators.has(keyword) && Array.isArray(value)) {
      // A union of objects: a call matches one variant, so the variants' maps are merged.
      out[keyword] = value.map((variant) => {
        const inner = rewrite(variant);
        if (inner.map) merge(map, inner.map);
        return inner.schema;
      });
    } else out[keyword] = rewrite(value).schema;
  }
  if (map.renamed.size > 0 && Array.isArray(out.required)) {
    const wireOf = new Map([...map.renamed].map(([wire, key]) => [key, wire]));
    out.required = out.required.map((key) => (typeof key === 'string' ? (wireOf.get(key) ?? key) : key));
  }
  return { schema: out, map: isEmpty(map) ? undefined : map };
}

function restore(value: unknown, map: KeyMap): unknown {
  if (Array.isArray(value)) return map.items ? value.map((item) => restore(item, map.items as KeyMap)) : value;
  if (!isRecord(value)) return value;
  const out: Schema = {};
  for (const [wire, child] of Object.entries(value)) {
    const key = map.renamed.get(wire) ?? wire;
    const inner = map.properties.get(key);
    out[key] = inner ? restore(child, inner) : child;
  }
  return out;
}

/**
 * A tool's parameters with every property key the model APIs accept
 * (`"file path"` → `file_path`, `"größe"` → `gro_e`), and the function
 * that puts a call's arguments back under the declared keys. Tools whose
 * keys are all safe come back unchanged, with `restore` the identity.
 */
export function wireSafeKeys(parameters: JsonSchemaObject): { parameters: JsonSchemaObject; restore: (args: unknown) => unknown } {
  const { schema, map } = rewrite(parameters);
  if (!map) return { parameters, restore: (args) => args };
  return { parameters: schema as JsonSchemaObject, restore: (args) => restore(args, map) };
}

/**
 * The schema without `format` keywords, for building a validator: zod reads
 * `uri-reference` as a URL and refuses `a/b.txt`, and the tool validates
 * formats itself (an MCP server checks its own input again).
 */
export function withoutFormats(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutFormats);
  if (!isRecord(schema)) return schema;
  const out: Schema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'format' && typeof value === 'string') continue;
    // Inside `properties` the keys are field names: a field may be called "format".
    out[keyword] =
      keyword === 'properties' && isRecord(value)
        ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, withoutFormats(sub)]))
        : withoutFormats(value);
  }
  return out;
}

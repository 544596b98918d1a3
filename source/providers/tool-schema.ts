import type { ToolSchema } from './types.js';

type Schema = Record<string, unknown>;

/** Keywords no provider needs and some reject. */
const metaKeywords = new Set(['$schema', '$id', '$comment']);
/** Combinators both OpenAI and Anthropic reject at the top level of a tool's parameters. */
const topLevelCombinators = ['anyOf', 'oneOf', 'allOf'] as const;

/**
 * A tool's parameters as the given wire API accepts them: a top-level
 * `type: object` with `properties`, no top-level combinators (a union of
 * object variants is merged: properties united, required intersected), and no
 * meta keywords anywhere. OpenAI Chat Completions and Anthropic Messages
 * (and the OpenAI-compatible local servers we target) reject the same things,
 * so one normalisation serves both wire APIs.
 */
export function normalizeToolSchema(parameters: Schema): Schema {
  const cleaned = stripMeta(parameters) as Schema;
  const top = mergeTopLevelUnion(cleaned);
  const result: Schema = { ...top, type: 'object', properties: isRecord(top.properties) ? top.properties : {} };
  if (Array.isArray(result.required) && result.required.length === 0) delete result.required;
  return result;
}

/** Every request sends the same registry-owned schemas: each is normalised once (the result is only serialised, never changed). */
const normalized = new WeakMap<Schema, Schema>();

export function normalizeTools(tools: readonly ToolSchema[]): ToolSchema[] {
  return tools.map((tool) => {
    let parameters = normalized.get(tool.parameters);
    if (parameters === undefined) {
      parameters = normalizeToolSchema(tool.parameters);
      normalized.set(tool.parameters, parameters);
    }
    return { ...tool, parameters };
  });
}

function mergeTopLevelUnion(schema: Schema): Schema {
  const out: Schema = { ...schema };
  for (const key of topLevelCombinators) {
    const variants = out[key];
    delete out[key];
    if (!Array.isArray(variants)) continue;
    const objects = variants.filter(isRecord);
    const properties: Schema = { ...(isRecord(out.properties) ? out.properties : {}) };
    let required: string[] | undefined = key === 'allOf' ? stringArray(out.required) : undefined;
    for (const variant of objects) {
      Object.assign(properties, isRecord(variant.properties) ? variant.properties : {});
      const variantRequired = stringArray(variant.required);
      if (key === 'allOf') required = [...new Set([...(required ?? []), ...variantRequired])];
      else required = required === undefined ? variantRequired : required.filter((name) => variantRequired.includes(name));
    }
    out.properties = properties;
    const base = stringArray(schema.required);
    const merged = [...new Set([...base, ...(required ?? [])])];
    if (merged.length > 0) out.required = merged;
    else delete out.required;
  }
  return out;
}

function stripMeta(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripMeta);
  if (!isRecord(value)) return value;
  const out: Schema = {};
  for (const [key, child] of Object.entries(value)) {
    if (metaKeywords.has(key)) continue;
    // Inside `properties` the keys are field names, which may legitimately look like keywords.
    out[key] =
      key === 'properties' && isRecord(child) ? Object.fromEntries(Object.entries(child).map(([name, sub]) => [name, stripMeta(sub)])) : stripMeta(child);
  }
  return out;
}

function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function isRecord(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

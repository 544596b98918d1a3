/** Dotted-path access for `claw config get|set|unset`. */

export function splitKey(key: string): string[] {
  const parts = key.split('.').map((p) => p.trim());
  if (parts.some((p) => p === '')) throw new Error(`"${key}" is not a config key: use dotted names like gateway.port`);
  return parts;
}

export function getAtPath(root: unknown, key: string): unknown {
  let node = root;
  for (const part of splitKey(key)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

export function setAtPath(root: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const parts = splitKey(key);
  const copy = structuredClone(root);
  let node: Record<string, unknown> = copy;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (next === undefined || next === null || typeof next !== 'object' || Array.isArray(next)) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts[parts.length - 1]!] = value;
  return copy;
}

export function unsetAtPath(root: Record<string, unknown>, key: string): { next: Record<string, unknown>; removed: boolean } {
  const parts = splitKey(key);
  const copy = structuredClone(root);
  let node: unknown = copy;
  for (const part of parts.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return { next: copy, removed: false };
    node = (node as Record<string, unknown>)[part];
  }
  const last = parts[parts.length - 1]!;
  if (node === null || typeof node !== 'object' || !(last in node)) return { next: copy, removed: false };
  delete (node as Record<string, unknown>)[last];
  return { next: copy, removed: true };
}

/** `config set` values are JSON when they parse as JSON, plain strings otherwise. */
export function parseCliValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

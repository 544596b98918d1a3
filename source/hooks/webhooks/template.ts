/** The value at a dotted path (`commits.0.message`), or undefined. */
export function valueAt(data: unknown, path: string): unknown {
  let node = data;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null)) return value.join(', ');
  return JSON.stringify(value);
}

/**
 * Turns posted JSON into message text: `{{field.path}}` becomes that field
 * (lists of plain values joined with ", ", objects as JSON, missing as "").
 * `{{.}}` is the whole payload.
 */
export function renderTemplate(template: string, data: unknown): string {
  return template.replace(/\{\{\s*([A-Za-z0-9_.$-]+)\s*\}\}/g, (_, path: string) => asText(path === '.' ? data : valueAt(data, path)));
}

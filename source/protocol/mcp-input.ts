import type { McpElicitationRecord } from './methods/mcp-elicitation.js';

/** One field of a server's question, as a form shows it. */
export interface ElicitationField {
  name: string;
  title: string;
  description?: string;
  kind: 'string' | 'number' | 'integer' | 'boolean' | 'enum';
  required: boolean;
  /** For `enum`: the values to choose from, with their labels. */
  options?: Array<{ value: string; label: string }>;
  default?: string | number | boolean;
}

type FieldSchema = {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  enumNames?: unknown[];
  oneOf?: Array<{ const?: unknown; title?: unknown }>;
  default?: unknown;
};

function enumOptions(field: FieldSchema): Array<{ value: string; label: string }> | undefined {
  if (Array.isArray(field.enum)) return field.enum.map((value, i) => ({ value: String(value), label: String(field.enumNames?.[i] ?? value) }));
  if (Array.isArray(field.oneOf) && field.oneOf.every((option) => option.const !== undefined)) {
    return field.oneOf.map((option) => ({ value: String(option.const), label: String(option.title ?? option.const) }));
  }
  return undefined;
}

/** The fields of an elicitation form in the order the server declared them. */
export function elicitationFields(schema: McpElicitationRecord['schema']): ElicitationField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, raw]) => {
    const field = raw as FieldSchema;
    const options = enumOptions(field);
    const kind: ElicitationField['kind'] = options
      ? 'enum'
      : field.type === 'number' || field.type === 'integer' || field.type === 'boolean'
        ? field.type
        : 'string';
    const result: ElicitationField = { name, title: field.title ?? name, kind, required: required.has(name) };
    if (field.description) result.description = field.description;
    if (options) result.options = options;
    if (typeof field.default === 'string' || typeof field.default === 'number' || typeof field.default === 'boolean') result.default = field.default;
    return result;
  });
}

/**
 * What the operator typed for one field, as the value to send: a number for
 * number fields, true/false for yes/no, one of the options for an enum.
 * Returns `{ error }` with what to type instead.
 */
export function parseElicitationValue(field: ElicitationField, text: string): { value: string | number | boolean } | { error: string } | { empty: true } {
  const typed = text.trim();
  if (typed === '') return field.default !== undefined ? { value: field.default } : field.required ? { error: `${field.title} is required.` } : { empty: true };
  switch (field.kind) {
    case 'number':
    case 'integer': {
      const value = Number(typed);
      if (!Number.isFinite(value) || (field.kind === 'integer' && !Number.isInteger(value)))
        return { error: `${field.title} needs ${field.kind === 'integer' ? 'a whole number' : 'a number'}, not "${typed}".` };
      return { value };
    }
    case 'boolean': {
      if (/^(y|yes|true|1)$/i.test(typed)) return { value: true };
      if (/^(n|no|false|0)$/i.test(typed)) return { value: false };
      return { error: `${field.title} needs yes or no, not "${typed}".` };
    }
    case 'enum': {
      const options = field.options ?? [];
      const byIndex = /^\d+$/.test(typed) ? options[Number(typed) - 1] : undefined;
      const match = byIndex ?? options.find((option) => option.value === typed || option.label.toLowerCase() === typed.toLowerCase());
      return match ? { value: match.value } : { error: `${field.title} must be one of ${options.map((o, i) => `${i + 1}) ${o.label}`).join(', ')}.` };
    }
    case 'string':
      return { value: typed };
  }
}

/** An `@server:uri` mention in a chat message: the resource to attach. */
export interface ResourceMention {
  server: string;
  uri: string;
  /** Where the mention is in the text, for highlighting or removal. */
  start: number;
  end: number;
}

const MENTION = /(^|\s)@([A-Za-z0-9_.-]+):([A-Za-z][A-Za-z0-9+.-]*:\S+)/g;

/**
 * Finds `@server:uri` mentions (`@docs:file:///notes/a.md`); the URI must
 * have a scheme, so `@bob: hi` is not a mention. Punctuation that ends a
 * sentence is not part of the URI.
 */
export function resourceMentions(text: string): ResourceMention[] {
  const mentions: ResourceMention[] = [];
  for (const match of text.matchAll(MENTION)) {
    const uri = match[3]!.replace(/[.,;:!?)\]]+$/, '');
    const start = match.index + match[1]!.length;
    mentions.push({ server: match[2]!, uri, start, end: start + 1 + match[2]!.length + 1 + uri.length });
  }
  return mentions;
}

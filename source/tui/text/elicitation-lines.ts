import { elicitationFields, revealText, type ElicitationField, type McpElicitationRecord } from '../../protocol/index.js';
import type { ElicitationFormUi } from '../store/elicitation.js';
import type { Line } from './chat-lines.js';
import { formatDuration } from './format.js';
import { wrapText } from './wrap.js';

function hint(field: ElicitationField): string {
  if (field.kind === 'boolean') return 'y/n';
  if (field.kind === 'enum') return (field.options ?? []).map((option, i) => `${i + 1}) ${option.label}`).join('  ');
  if (field.kind === 'number' || field.kind === 'integer') return field.kind === 'integer' ? 'a whole number' : 'a number';
  return 'text';
}

/**
 * A server's question as a form: the message, then one line per field with
 * its answer so far (the current one with the cursor), an error when the
 * last answer did not fit the field, and the keys. The server wrote the
 * text, so control and bidi characters are shown escaped.
 */
export function elicitationLines(record: McpElicitationRecord, form: ElicitationFormUi, width: number, now: number, queued: number): Line[] {
  const inner = Math.max(10, width - 2);
  const left = record.expiresAt - now;
  const fields = elicitationFields(record.schema);
  const lines: Line[] = [
    {
      text: `? MCP server "${record.server}" asks${queued > 0 ? ` (+${queued} more waiting)` : ''} · ${left > 0 ? `${formatDuration(left)} left, then declined` : 'expired'}`,
      color: 'yellow',
      bold: true,
    },
    ...wrapText(revealText(record.message).text, inner).map((text) => ({ text, bold: true })),
  ];
  fields.forEach((field, index) => {
    const current = index === form.field;
    const answered = form.values[field.name];
    const label = `${current ? '›' : ' '} ${revealText(field.title).text}${field.required ? '*' : ''}`;
    const value = current ? `${form.draft}▏` : answered === undefined ? '' : String(answered);
    const kind = current ? `  (${hint(field)}${field.default !== undefined ? `, Enter for ${String(field.default)}` : ''})` : '';
    lines.push(...wrapText(`${label}: ${value}${kind}`, inner).map((text) => ({ text, ...(current ? { color: 'cyan' as const } : {}) })));
    if (current && field.description)
      lines.push(...wrapText(`  ${revealText(field.description).text}`, inner).map((text) => ({ text, color: 'gray' as const })));
  });
  if (form.error) lines.push(...wrapText(form.error, inner).map((text) => ({ text, color: 'red' as const })));
  if (form.guardedKeys > 0 && !form.engaged)
    lines.push({
      text: `${form.guardedKeys} key${form.guardedKeys > 1 ? 's' : ''} went to your draft, not the form: pause, then type the answer`,
      color: 'yellow',
    });
  lines.push(...wrapText('Enter next field (the last one sends) · ↑ previous field · Esc decline', inner).map((text) => ({ text, color: 'cyan' as const })));
  return lines;
}

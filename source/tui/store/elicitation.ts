import { elicitationFields, parseElicitationValue, type McpElicitationRecord, type PayloadOf } from '../../protocol/index.js';
import { APPROVAL_GUARD_MS } from './approval-guard.js';
import type { TuiState } from './state.js';

export interface McpResourceChoice {
  server: string;
  uri: string;
  name: string;
}

export interface McpTuiState {
  elicitations: readonly McpElicitationRecord[];
  /** Answered elsewhere (or expired) before a list reply arrived: never shown again. */
  resolvedIds: readonly string[];
  resources: readonly McpResourceChoice[];
}

/** The form on screen: which field is being typed, the answers so far, and the approval-style typing guard. */
export interface ElicitationFormUi {
  id: string;
  shownAt: number;
  /** False until the first deliberate key: keys typed for the draft before the form appeared never answer it. */
  engaged: boolean;
  field: number;
  draft: string;
  values: Readonly<Record<string, string | number | boolean>>;
  error?: string;
  guardedKeys: number;
}

export type ElicitationAnswer = { action: 'accept'; content: Record<string, string | number | boolean> } | { action: 'decline' | 'cancel' };

const mcpOf = (state: TuiState): McpTuiState => state.mcp ?? { elicitations: [], resolvedIds: [], resources: [] };

export function selectActiveElicitation(state: TuiState): McpElicitationRecord | undefined {
  return state.mcp?.elicitations[0];
}

export function reduceElicitationList(state: TuiState, records: readonly McpElicitationRecord[]): TuiState {
  const mcp = mcpOf(state);
  const elicitations = records.filter((record) => record.status === 'pending' && !mcp.resolvedIds.includes(record.id));
  return { ...state, mcp: { ...mcp, elicitations } };
}

export function reduceElicitationRequested(state: TuiState, payload: PayloadOf<'mcp.elicitation.requested'>): TuiState {
  const mcp = mcpOf(state);
  if (mcp.elicitations.some((record) => record.id === payload.elicitation.id)) return state;
  return { ...state, mcp: { ...mcp, elicitations: [...mcp.elicitations, payload.elicitation] } };
}

export function reduceElicitationResolved(state: TuiState, payload: PayloadOf<'mcp.elicitation.resolved'>): TuiState {
  const mcp = mcpOf(state);
  const { id } = payload.elicitation;
  return {
    ...state,
    mcp: { ...mcp, elicitations: mcp.elicitations.filter((record) => record.id !== id), resolvedIds: [...mcp.resolvedIds, id].slice(-200) },
  };
}

export function reduceMcpResources(state: TuiState, resources: readonly McpResourceChoice[]): TuiState {
  return { ...state, mcp: { ...mcpOf(state), resources } };
}

/** Opens a fresh form when a question reaches the front, closes it when none is left; run after every state change. */
export function trackElicitationShown(state: TuiState, now: number): TuiState {
  const active = selectActiveElicitation(state);
  const form = state.ui.elicitation;
  if (!active) return form ? { ...state, ui: { ...state.ui, elicitation: undefined } } : state;
  if (form?.id === active.id) return state;
  const elicitation: ElicitationFormUi = { id: active.id, shownAt: now, engaged: false, field: 0, draft: '', values: {}, guardedKeys: 0 };
  return { ...state, ui: { ...state.ui, elicitation } };
}

/** Whether a key may start answering the form: as with approvals, only one pressed after a pause, never a paste. */
export function isDeliberateFormKey(form: ElicitationFormUi, lastKeyAt: number | undefined, input: string, now: number): boolean {
  if (form.engaged) return true;
  if (now - form.shownAt < APPROVAL_GUARD_MS) return false;
  if (lastKeyAt !== undefined && now - lastKeyAt < APPROVAL_GUARD_MS) return false;
  return [...input].length <= 1;
}

export interface FormKey {
  text?: string;
  enter?: boolean;
  backspace?: boolean;
  escape?: boolean;
  up?: boolean;
}

/**
 * One key on the form. Typing edits the current field, Enter checks it and
 * moves on (an answer to the last field accepts the whole form), ↑ goes back
 * a field, Esc declines. Returns the new form and, when the operator is
 * done, the answer to send.
 */
export function formKey(record: McpElicitationRecord, form: ElicitationFormUi, key: FormKey): { form: ElicitationFormUi; answer?: ElicitationAnswer } {
  const fields = elicitationFields(record.schema);
  const engaged = { ...form, engaged: true };
  if (key.escape) return { form: engaged, answer: { action: 'decline' } };
  if (key.up) {
    const field = Math.max(0, form.field - 1);
    const previous = fields[field] ? form.values[fields[field]!.name] : undefined;
    return { form: { ...engaged, field, draft: previous === undefined ? '' : String(previous), error: undefined } };
  }
  if (key.backspace) return { form: { ...engaged, draft: [...form.draft].slice(0, -1).join(''), error: undefined } };
  if (key.text !== undefined) return { form: { ...engaged, draft: form.draft + key.text, error: undefined } };
  if (!key.enter) return { form };
  const field = fields[form.field];
  if (!field) return { form: engaged, answer: { action: 'accept', content: { ...form.values } } };
  const parsed = parseElicitationValue(field, form.draft);
  if ('error' in parsed) return { form: { ...engaged, error: parsed.error } };
  const values = { ...form.values };
  if ('value' in parsed) values[field.name] = parsed.value;
  else delete values[field.name];
  const next = form.field + 1;
  if (next >= fields.length) return { form: { ...engaged, values, draft: '' }, answer: { action: 'accept', content: values } };
  const ahead = values[fields[next]!.name];
  return { form: { ...engaged, values, field: next, draft: ahead === undefined ? '' : String(ahead), error: undefined } };
}

import type { Key } from 'ink';
import type { McpElicitationRecord } from '../protocol/index.js';
import type { CommandContext } from './commands/types.js';
import { isForwardDelete } from './editor/keys.js';
import { formKey, isDeliberateFormKey, type ElicitationAnswer, type FormKey } from './store/elicitation.js';
import { setUi } from './ui-actions.js';

function asFormKey(input: string, key: Key, raw: string | undefined): FormKey | undefined {
  if (key.escape) return { escape: true };
  if (key.return) return { enter: true };
  if (key.upArrow) return { up: true };
  if (key.backspace || (key.delete && !isForwardDelete(raw))) return { backspace: true };
  if (key.ctrl || key.meta || key.tab || input === '' || /[\r\n]/.test(input)) return undefined;
  return { text: input };
}

/** Sends the operator's answer; the gateway's resolved event closes the form (here and in every other client). */
export async function respondElicitation(context: CommandContext, record: McpElicitationRecord, answer: ElicitationAnswer): Promise<void> {
  try {
    await context.controller.call('mcp.elicitation.respond', { id: record.id, ...answer, idempotencyKey: `${record.id}:${answer.action}` });
  } catch (error) {
    context.controller.error(error, `The question from MCP server "${record.server}" may have been answered elsewhere or declined on timeout.`);
  }
}

/**
 * Keys while a server's question is on screen. Until the operator has
 * deliberately started answering (a single key after a pause, as for
 * approvals), keys go to the draft: what was being typed when the form
 * appeared never answers it.
 */
export function handleElicitationKey(
  input: string,
  key: Key,
  context: CommandContext,
  raw: string | undefined,
  record: McpElicitationRecord,
  /** When the key before this one arrived (the state before this key). */
  previousKeyAt: number | undefined,
  toDraft: () => void,
): void {
  const { store } = context;
  const state = store.getState();
  const form = state.ui.elicitation;
  if (!form || form.id !== record.id) return;
  const now = store.now();
  if (!isDeliberateFormKey(form, previousKeyAt, input, now)) {
    store.update((s) => setUi(s, { elicitation: s.ui.elicitation && { ...s.ui.elicitation, guardedKeys: s.ui.elicitation.guardedKeys + 1 } }));
    return toDraft();
  }
  const formInput = asFormKey(input, key, raw);
  if (!formInput) return;
  const { form: next, answer } = formKey(record, form, formInput);
  store.update((s) => setUi(s, { elicitation: next }));
  if (answer) void respondElicitation(context, record, answer);
}

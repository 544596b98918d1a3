import { afterEach, describe, expect, it } from 'vitest';
import { ElicitationInbox, type ElicitationRecord } from '../../../source/tools/mcp/elicitation.js';

const inboxes: ElicitationInbox[] = [];
afterEach(() => {
  for (const inbox of inboxes.splice(0)) inbox.close();
});

/** The SEP-1034 form: a default for every kind of field. */
const schema = {
  type: 'object' as const,
  properties: {
    name: { type: 'string' as const, default: 'John Doe' },
    age: { type: 'integer' as const, default: 30 },
    score: { type: 'number' as const, default: 95.5 },
    status: { type: 'string' as const, enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean' as const, default: true },
    tags: { type: 'array' as const, items: { type: 'string' as const, enum: ['a', 'b'] }, default: ['a'] },
    note: { type: 'string' as const },
  },
};

function ask(inbox: ElicitationInbox) {
  let record: ElicitationRecord | undefined;
  inbox.on((event, r) => {
    if (event === 'requested') record = r;
  });
  const answer = inbox.ask('srv', { mode: 'form', message: 'Fill it in', requestedSchema: schema } as never, new AbortController().signal);
  return { answer, id: () => record!.id };
}

describe('elicitation defaults (SEP-1034)', () => {
  it('an accepted form gets the schema default for every field left empty, and keeps what the operator typed', async () => {
    const inbox = new ElicitationInbox();
    inboxes.push(inbox);
    const { answer, id } = ask(inbox);
    inbox.respond(id(), { action: 'accept', content: { name: '', age: 41, tags: [] } }, 'tui');
    expect(await answer).toEqual({
      action: 'accept',
      content: { name: 'John Doe', age: 41, score: 95.5, status: 'active', verified: true, tags: ['a'] },
    });
  });

  it('a declined form sends no content', async () => {
    const inbox = new ElicitationInbox();
    inboxes.push(inbox);
    const { answer, id } = ask(inbox);
    inbox.respond(id(), { action: 'decline' }, 'tui');
    expect(await answer).toEqual({ action: 'decline' });
  });
});

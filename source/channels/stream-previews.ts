import type { CorePorts } from '../core/index.js';

/** A transcript note: the chat message a run's streamed preview went to. */
const STREAM_PREVIEW = 'stream_preview';

type Ports = Pick<CorePorts, 'sessions' | 'log'>;

/** The first preview message of a streamed reply is noted in the transcript: a restart that replays the run edits it into the final reply. */
export function notePreview(ports: Ports, sessionKey: string, runId: string, messageId: string): void {
  void ports.sessions
    .open(sessionKey)
    .then((session) => session.append({ type: 'custom', customType: STREAM_PREVIEW, data: { runId, messageId } }))
    .catch((error: unknown) => ports.log.warn(`stream preview of ${runId} not noted in ${sessionKey}: ${String(error)}`));
}

/** The preview a killed process left in the chat for this run, if it noted one. */
export async function previewLeftBy(ports: Ports, sessionKey: string, runId: string): Promise<string | undefined> {
  try {
    const session = await ports.sessions.open(sessionKey);
    for (const entry of session.entries()) {
      if (entry.type !== 'custom' || entry.customType !== STREAM_PREVIEW) continue;
      const data = entry.data as { runId?: string; messageId?: string };
      if (data.runId === runId && data.messageId) return data.messageId;
    }
  } catch {
    // No transcript to read: the reply goes as a new message.
  }
  return undefined;
}

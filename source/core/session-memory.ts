import type { ClawConfig, Clock, Logger, StatePaths } from '../config/index.js';
import { agentWorkspace, writeSessionMemory, type ConversationMessage } from '../memory/index.js';
import type { SessionRegistry } from '../sessions/index.js';

/**
 * Saves a session's recent conversation as `memory/YYYY-MM-DD-<slug>.md` so
 * it stays searchable. The bundled `session-memory` hook calls it before
 * `/new` or `/reset` replaces the transcript. A failure is logged, never
 * allowed to block the reset.
 */
export async function saveConversationToMemory(
  sessions: SessionRegistry,
  key: string,
  deps: { config: ClawConfig; paths: StatePaths; clock: Pick<Clock, 'now'>; log?: Logger },
): Promise<string | undefined> {
  if (!deps.config.memory.enabled || !sessions.get(key)) return undefined;
  try {
    const session = await sessions.open(key);
    const messages: ConversationMessage[] = [];
    for (const entry of session.entries()) {
      if (entry.type !== 'message') continue;
      if (entry.role === 'user' && !entry.meta?.synthetic) messages.push({ role: 'user', text: entry.content });
      if (entry.role === 'assistant') {
        const text = entry.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
        if (text && text.trim() !== 'NO_REPLY') messages.push({ role: 'assistant', text });
      }
    }
    return writeSessionMemory({
      workspace: agentWorkspace(deps.config, deps.paths, session.agentId),
      messages,
      sessionKey: key,
      now: new Date(deps.clock.now()),
    });
  } catch (error) {
    deps.log?.warn(`could not save ${key} to memory before the reset: ${String(error)}`);
    return undefined;
  }
}

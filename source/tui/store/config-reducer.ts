import type { ConfigStatus } from '../../protocol/index.js';
import { appendItems, updateChat } from './chat-reducer.js';
import type { TuiState } from './state.js';

/** The key at fault, from the gateway's validation error (`  - gateway.prot: …` → that line). */
function firstIssue(error: string | undefined): string {
  const line = error?.split('\n').find((text) => text.trimStart().startsWith('- '));
  return line?.trim().replace(/^- /, '') ?? error?.split('\n')[0] ?? 'see the gateway log';
}

/** claw.json changed under the running gateway: say what happened in the chat being looked at. */
export function reduceConfigStatus(state: TuiState, status: ConfigStatus): TuiState {
  const id = `config:${status.loadedAt}:${status.state}`;
  if (status.state === 'invalid') {
    return updateChat(state, state.currentKey, (log) =>
      appendItems(log, [
        { kind: 'error', id, message: 'claw.json is invalid; the gateway keeps running the last good config.', hint: firstIssue(status.error) },
      ]),
    );
  }
  const text =
    status.state === 'restart-needed'
      ? `claw.json: ${status.restartNeeded.join(', ')} changed; run \`claw gateway restart\` to apply.`
      : 'claw.json reloaded: the new config is live.';
  return updateChat(state, state.currentKey, (log) => appendItems(log, [{ kind: 'notice', id, text }]));
}

import type { ResultRecord } from './records.js';

/** A child's whole reply that suppresses its announce (the parent needs no report). */
export const ANNOUNCE_SKIP = 'ANNOUNCE_SKIP';

/** What marks a parent's inbound message as carrying child results. */
export const RESULT_KIND = 'subagent_result';
export const SPAWN_PREFIX = 'spawn:';
export const STEER_PREFIX = 'steer:';
export const RESULT_PREFIX = `${RESULT_KIND}:`;

export function announceMessageId(runIds: readonly string[]): string {
  return `${RESULT_PREFIX}${runIds.join('+')}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The first message of a child: its task, and the rules of being one. */
export function childTaskText(input: { parentKey: string; label: string; task: string; forkedContext?: string }): string {
  return [
    `[subagent task from ${input.parentKey}: "${input.label}"]`,
    input.task,
    ...(input.forkedContext ? ['', 'Context from the parent conversation (most recent last):', input.forkedContext] : []),
    '',
    `You are a sub-agent: the user does not see your messages. Your final reply is handed to the parent session as your result, so make it complete and self-contained. Reply exactly ${ANNOUNCE_SKIP} if the parent needs no report.`,
  ].join('\n');
}

/** The inbound message that carries one or more child results to their parent. */
export function resultText(results: readonly ResultRecord[], maxChars: number): string {
  const head =
    results.length === 1 ? `[${RESULT_KIND}] a child run reported:` : `[${RESULT_KIND}] ${results.length} child runs reported (in the order they finished):`;
  const share = Math.max(200, Math.floor(maxChars / results.length));
  const sections = results.map((r) => {
    const body = r.text.trim() || '(the child gave no text)';
    const cut =
      body.length > share ? `${body.slice(0, share)}\n[… ${body.length - share} more characters cut; sessions_history ${r.childKey} has all of it]` : body;
    return `--- "${r.label}" · ${r.status} · ${seconds(r.durationMs)} · ${r.tokens} tokens · run ${r.runId} (${r.childKey})\n${cut}`;
  });
  return [head, ...sections, '', 'These results are not visible to the user yet: use them to continue the task.'].join('\n');
}

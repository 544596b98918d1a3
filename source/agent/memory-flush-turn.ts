import { MEMORY_FLUSH_SYNTHETIC } from './compaction/index.js';
import { runTurnLoop, type TurnLoopContext } from './turn-loop.js';
import type { TurnEvents } from './turn-types.js';

/** The flush turn talks to no one: its deltas, tool events and NO_REPLY never leave the gateway. */
const silentEvents: TurnEvents = { chat: () => undefined, agent: () => undefined };

/**
 * The silent pre-compaction turn: asks the agent to append durable notes to
 * its memory file. The engine records it as done for this compaction cycle
 * before it runs, so a failing flush is never retried in a loop; its transcript entries
 * stay (marked synthetic) and are compacted like any others.
 */
export async function runMemoryFlushTurn(loop: TurnLoopContext, prompt: string): Promise<void> {
  const { session } = loop.input;
  await session.append({ type: 'message', role: 'user', content: prompt, meta: { synthetic: MEMORY_FLUSH_SYNTHETIC } });
  await runTurnLoop({ ...loop, input: { runId: loop.input.runId, session, messages: [], signal: loop.signal }, events: silentEvents });
}

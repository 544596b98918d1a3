/**
 * Lanes and the inbound journal. The agent runtime plugs in by implementing
 * `TurnRunner` (turn-runner.ts): the lane opens the session, appends the user
 * message(s), calls run(), then records the outcome and emits the `chat`
 * error/aborted event for failures so a sender is never left in silence.
 */
export type { TurnRunner, TurnContext, TurnOutcome, QueuedMessage, SessionHandle, SessionMeta, SessionMetaPatch, NewTranscriptEntry } from './turn-runner.js';
export { LaneQueue, type LaneQueueOptions, type EnqueueStatus } from './lane-queue.js';
export { resolveQueueMode, poolForSessionKey, type QueueMode, type QueueConfig, type DropPolicy, type PoolName, type ModeSources } from './modes.js';
export { InboundJournal, type JournalOptions, type AcceptInput, type JournalStats, type DedupeEntry } from './inbound-journal.js';
export { journalRecord, type AcceptedRecord, type OutcomeRecord, type JournalRecord, type OutcomeStatus } from './journal-records.js';
export type { OutcomeDetail } from './turn-settlement.js';
export { noModelRunner, echoRunner, testRunnerFromEnv } from './builtin-runners.js';
export type { TurnEmitter } from './active-turn.js';
export { principalOf, replyRouteOf, type InboundMessage, type InboundSink } from './inbound-message.js';
export { RERUN_ENTRY } from './turn-io.js';

import type { ActiveTurn, TurnSlot } from './active-turn.js';
import type { Pool } from './pool.js';

/**
 * Lending a running turn's pool slot while it only waits on its provider:
 * another lane may start meanwhile; taking the slot back queues behind lanes
 * already waiting. The session's own lane stays held, so its order is kept.
 */
export function lendSlot(pool: Pool, laneKey: string, turn: ActiveTurn, changed: () => void): TurnSlot {
  const owner = `${laneKey}\u0000resume`;
  return {
    release: () => {
      turn.holdsSlot = false;
      pool.release();
      changed();
    },
    reacquire: () =>
      new Promise<void>((resolve) => {
        if (turn.finished) return resolve();
        const settle = (): void => {
          turn.resume = undefined;
          resolve();
        };
        turn.resume = { owner, settle };
        pool.request(owner, () => {
          turn.holdsSlot = true;
          settle();
          changed();
        });
      }),
  };
}

/** A turn that ends while its slot is lent out: it never takes the slot back. */
export function cancelResume(pool: Pool, turn: ActiveTurn): void {
  const resume = turn.resume;
  if (!resume) return;
  pool.cancel(resume.owner);
  resume.settle();
}

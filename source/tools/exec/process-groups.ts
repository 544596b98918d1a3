import { mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { allProcesses, readStat } from './proc-stat.js';

/** One exec process group, as recorded while it runs. */
interface GroupRecord {
  pgid: number;
  session: number;
  startTime: number;
  gatewayPid: number;
  command: string;
}

export interface LeftoverGroup {
  pgid: number;
  command: string;
  /** Processes of the group that were still running and got SIGKILL. */
  killed: number[];
}

function parseRecord(text: string): GroupRecord | undefined {
  try {
    const value = JSON.parse(text) as Partial<GroupRecord>;
    const numbers = [value.pgid, value.session, value.startTime, value.gatewayPid];
    if (!numbers.every((n) => typeof n === 'number' && Number.isInteger(n))) return undefined;
    return { ...(value as GroupRecord), command: typeof value.command === 'string' ? value.command : '' };
  } catch {
    return undefined;
  }
}

/**
 * The process groups exec children run in, recorded in the state dir while
 * they run (one small file per group, `<pgid>.json`). A gateway killed with
 * SIGKILL cannot end them, and they are re-parented to PID 1; the next
 * gateway ends them at start-up (`endLeftovers`). Outside the bubblewrap
 * sandbox nothing else would (its --die-with-parent covers sandboxed runs).
 */
export class ProcessGroupLedger {
  private made = false;

  constructor(private readonly dir: string) {}

  /** Records the group `pid` leads (exec children are spawned as session and group leaders). */
  track(pid: number, command: string): void {
    const stat = readStat(pid);
    // Gone already, or no /proc (not Linux): nothing a later start-up could check, so nothing to record.
    if (!stat) return;
    if (!this.made) {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      this.made = true;
    }
    const record: GroupRecord = { pgid: stat.pgrp, session: stat.session, startTime: stat.startTime, gatewayPid: process.pid, command };
    // Not fsynced: after a power loss the group is gone too.
    writeFileSync(join(this.dir, `${stat.pgrp}.json`), JSON.stringify(record), { mode: 0o600 });
  }

  forget(pid: number): void {
    try {
      unlinkSync(join(this.dir, `${pid}.json`));
    } catch {
      // Never recorded (no /proc) or already forgotten.
    }
  }

  /**
   * Ends the processes of every group a previous gateway recorded and did
   * not see exit. A process is ended only when it is provably of that group:
   * same group and session, started no earlier than the group's leader, and
   * the group id not taken over by a new leader since (pid reuse).
   */
  endLeftovers(): LeftoverGroup[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((name) => name.endsWith('.json'));
    } catch {
      return [];
    }
    if (names.length === 0) return [];
    const processes = allProcesses();
    const ended: LeftoverGroup[] = [];
    for (const name of names) {
      const path = join(this.dir, name);
      let record: GroupRecord | undefined;
      try {
        record = parseRecord(readFileSync(path, 'utf8'));
      } catch {
        record = undefined;
      }
      if (record && record.gatewayPid !== process.pid) {
        const { pgid, session, startTime } = record;
        const leader = processes.find((p) => p.pid === pgid);
        const reused = leader !== undefined && leader.startTime !== startTime;
        const members = reused ? [] : processes.filter((p) => p.pgrp === pgid && p.session === session && p.startTime >= startTime && p.pid !== process.pid);
        const killed = members.flatMap((p) => {
          try {
            process.kill(p.pid, 'SIGKILL');
            return [p.pid];
          } catch {
            return [];
          }
        });
        if (killed.length > 0) ended.push({ pgid, command: record.command, killed });
      }
      try {
        unlinkSync(path);
      } catch {
        // Removed meanwhile: nothing left to do for it.
      }
    }
    return ended;
  }
}

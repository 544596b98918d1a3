import { readdirSync, readFileSync } from 'node:fs';

/** What /proc says of one process: enough to tell it is the one a record names, and whose child it is. */
export interface ProcStat {
  pid: number;
  ppid: number;
  pgrp: number;
  session: number;
  /** Clock ticks after boot: with the pid, it names one process for the life of the machine. */
  startTime: number;
}

export function readStat(pid: number | string): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // After the name: state, ppid, pgrp, session, …, starttime is field 22 of the whole line.
  const [ppid, pgrp, session, startTime] = [fields[1], fields[2], fields[3], fields[19]].map(Number);
  const numbers = [ppid, pgrp, session, startTime];
  if (numbers.some((n) => n === undefined || Number.isNaN(n))) return undefined;
  return { pid: Number(pid), ppid: ppid!, pgrp: pgrp!, session: session!, startTime: startTime! };
}

export function allProcesses(): ProcStat[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  return names.flatMap((name) => (/^\d+$/.test(name) ? (readStat(name) ?? []) : []));
}

/** Every process below `roots` (not the roots themselves), from one pass over /proc. */
export function descendantsOf(roots: readonly number[]): ProcStat[] {
  if (roots.length === 0) return [];
  const children = new Map<number, ProcStat[]>();
  for (const stat of allProcesses()) {
    const list = children.get(stat.ppid);
    if (list) list.push(stat);
    else children.set(stat.ppid, [stat]);
  }
  const found: ProcStat[] = [];
  const queue = [...roots];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

/** Signals a process only while it is still the one that was seen (a pid may be reused once it exits). */
export function signalIfSame(stat: ProcStat, signal: NodeJS.Signals): void {
  if (readStat(stat.pid)?.startTime !== stat.startTime) return;
  try {
    process.kill(stat.pid, signal);
  } catch {
    // Exited between the check and the signal.
  }
}

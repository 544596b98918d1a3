import { randomUUID } from 'node:crypto';
import type { PlanRun, RunResult } from './run-plan.js';

export interface Job {
  id: string;
  agentId: string;
  sessionKey: string;
  command: string;
  startedAt: number;
  run: PlanRun;
  result?: RunResult;
  /** Output produced since the last poll (tail kept when it grows past the cap). */
  unread: string;
}

export interface JobSummary {
  id: string;
  command: string;
  status: 'running' | 'exited' | 'killed';
  exitCode: number | null;
  startedAt: number;
  pids: number[];
}

/** Background exec runs, reachable through the `process` tool. */
export class JobManager {
  readonly #jobs = new Map<string, Job>();

  constructor(readonly maxUnreadChars = 200_000) {}

  start(run: PlanRun, owner: { agentId: string; sessionKey: string; command: string }, subscribe: (listener: (text: string) => void) => void): Job {
    const job: Job = { id: randomUUID().slice(0, 8), ...owner, startedAt: Date.now(), run, unread: '' };
    subscribe((text) => {
      job.unread = (job.unread + text).slice(-this.maxUnreadChars);
    });
    void run.result.then((result) => {
      job.result = result;
    });
    this.#jobs.set(job.id, job);
    return job;
  }

  get(id: string, agentId: string): Job | undefined {
    const job = this.#jobs.get(id);
    return job && job.agentId === agentId ? job : undefined;
  }

  list(agentId: string): JobSummary[] {
    return [...this.#jobs.values()].filter((job) => job.agentId === agentId).map(summarize);
  }

  /** Kills every running job and waits for them (gateway shutdown). */
  async closeAll(): Promise<void> {
    const running = [...this.#jobs.values()].filter((job) => !job.result);
    for (const job of running) job.run.kill('aborted');
    await Promise.all(running.map((job) => job.run.result));
  }
}

export function summarize(job: Job): JobSummary {
  const status = !job.result ? 'running' : job.result.killed ? 'killed' : 'exited';
  return { id: job.id, command: job.command, status, exitCode: job.result?.exitCode ?? null, startedAt: job.startedAt, pids: job.run.pids };
}

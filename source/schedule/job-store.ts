import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic, writeFileAtomicSync } from '../config/index.js';
import { cronJob, type CronJob, lazySchema } from '../protocol/index.js';

const jobsFile = lazySchema(() => z.strictObject({ version: z.literal(1), jobs: z.array(cronJob) }));

function isEmptyJobsFile(raw: unknown): boolean {
  if (typeof raw !== 'object' || raw === null) return false;
  const { version, jobs, ...rest } = raw as Record<string, unknown>;
  return version === 1 && Array.isArray(jobs) && jobs.length === 0 && Object.keys(rest).length === 0;
}

export interface LoadedJobs {
  jobs: CronJob[];
  /** Set when jobs.json could not be read and the last good copy was used instead. */
  notice?: string;
}

/**
 * `cron/jobs.json` {version, jobs[]}, replaced atomically. Every good write
 * also refreshes `jobs.last-good.json`, so a file broken by hand (or by a
 * disk) falls back to the last state that worked, and says so. A save of
 * what both files already hold writes nothing: every start saves what its
 * recovery settled, usually what was there, and those four fsyncs were the
 * most a restart asked of the disk.
 */
export class JobStore {
  readonly path: string;
  readonly lastGoodPath: string;

  constructor(cronDir: string) {
    this.path = join(cronDir, 'jobs.json');
    this.lastGoodPath = join(cronDir, 'jobs.last-good.json');
  }

  loadSync(): LoadedJobs {
    if (!existsSync(this.path)) return { jobs: [] };
    const problem = this.#readProblem(this.path);
    if (typeof problem !== 'string') return { jobs: problem };
    const fallback = existsSync(this.lastGoodPath) ? this.#readProblem(this.lastGoodPath) : 'no last good copy exists';
    if (typeof fallback !== 'string') {
      return {
        jobs: fallback,
        notice: `${this.path} is unreadable (${problem}); running the last good copy (${fallback.length} job(s)) from ${this.lastGoodPath}. Fix or delete jobs.json; the next change to a job rewrites it.`,
      };
    }
    return {
      jobs: [],
      notice: `${this.path} is unreadable (${problem}) and ${fallback}; no cron jobs run. Fix the file (or delete it to start over) and restart the gateway.`,
    };
  }

  async save(jobs: readonly CronJob[]): Promise<void> {
    const text = `${JSON.stringify({ version: 1, jobs }, null, 2)}\n`;
    if (this.#holds(text)) return;
    await writeFileAtomic(this.path, text);
    await writeFileAtomic(this.lastGoodPath, text);
  }

  saveSync(jobs: readonly CronJob[]): void {
    const text = `${JSON.stringify({ version: 1, jobs }, null, 2)}\n`;
    if (this.#holds(text)) return;
    writeFileAtomicSync(this.path, text);
    writeFileAtomicSync(this.lastGoodPath, text);
  }

  #holds(text: string): boolean {
    return textOf(this.path) === text && textOf(this.lastGoodPath) === text;
  }

  #readProblem(path: string): CronJob[] | string {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      return `not JSON: ${error instanceof Error ? error.message : String(error)}`;
    }
    // Most gateways have no jobs: that file is answered without building the job schema (~100 zod nodes, on the way to ready).
    if (isEmptyJobsFile(raw)) return [];
    const parsed = jobsFile.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return `not a jobs file: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid'}`;
    }
    return parsed.data.jobs;
  }
}

function textOf(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

import { statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode, nodeFileOps, writeFully, type FileOps } from '../config/index.js';
import { systemClock, type Clock, type TimerHandle } from '../config/index.js';

export interface WriteProbeOptions {
  /** The directories that must take writes: the journal's, each agent's sessions dir. */
  dirs: () => readonly string[];
  fs?: FileOps;
  clock?: Clock;
  /** How old a result may be before the next question re-probes; also the re-probe period while failing. */
  intervalMs?: number;
  /** Less free space than this counts as full: a turn's lines must fit, not only the probe's. */
  minFreeBytes?: number;
}

export type WriteStatus = { ok: true } | { ok: false; dir: string; reason: string };

const PROBE_FILE = '.write-probe';
const PROBE_BYTES = 4096;

/**
 * Whether the state dir can take writes right now, asked before a message is
 * acknowledged and by `/readyz`. A probe writes and syncs a small file in each
 * directory (and checks free space), at most once per interval; while it
 * fails it re-probes on its own, so the gateway takes messages again as soon
 * as space returns, without a restart.
 */
export class WriteProbe {
  private current: WriteStatus = { ok: true };
  private checkedAt = -Infinity;
  private running: Promise<WriteStatus> | undefined;
  private timer: TimerHandle | undefined;
  private stopped = false;
  private readonly ops: FileOps;
  private readonly clock: Clock;
  private readonly intervalMs: number;
  private readonly minFreeBytes: number;

  constructor(private readonly options: WriteProbeOptions) {
    this.ops = options.fs ?? nodeFileOps;
    this.clock = options.clock ?? systemClock;
    this.intervalMs = options.intervalMs ?? 1000;
    this.minFreeBytes = options.minFreeBytes ?? 256 * 1024;
  }

  /** The last result; starts a fresh probe in the background when it is stale. */
  status(): WriteStatus {
    if (!this.running && this.clock.now() - this.checkedAt >= this.intervalMs) void this.check();
    return this.current;
  }

  /** Why a message must not be acknowledged now, or undefined when it may. */
  refusal(): string | undefined {
    const status = this.status();
    if (status.ok) return undefined;
    return `Not accepted: the state dir cannot be written (${status.dir}: ${status.reason}). Free disk space or fix permissions there; the gateway takes messages again by itself once it can write.`;
  }

  /** Probes every directory, starting after any probe already running, so the result is as of this call. */
  check(): Promise<WriteStatus> {
    const probe = (this.running ?? Promise.resolve())
      .then(() => this.probeAll())
      .then((status) => {
        this.current = status;
        this.checkedAt = this.clock.now();
        if (this.running === probe) this.running = undefined;
        this.scheduleRecheck();
        return status;
      });
    this.running = probe;
    return probe;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) this.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  private scheduleRecheck(): void {
    if (this.current.ok || this.stopped || this.timer) return;
    this.timer = this.clock.setTimer(() => {
      this.timer = undefined;
      void this.check();
    }, this.intervalMs);
  }

  private async probeAll(): Promise<WriteStatus> {
    for (const dir of this.options.dirs()) {
      const reason = await this.probe(dir);
      if (reason) return { ok: false, dir, reason };
    }
    return { ok: true };
  }

  private async probe(dir: string): Promise<string | undefined> {
    try {
      const space = await statfs(dir);
      const free = space.bavail * space.bsize;
      if (free < this.minFreeBytes) return `only ${free} bytes free`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      return errorCode(error);
    }
    const path = join(dir, PROBE_FILE);
    let fd: number | undefined;
    try {
      fd = this.ops.openSync(path, 'w', 0o600);
      await writeFully(this.ops, fd, Buffer.alloc(PROBE_BYTES), path);
      await this.ops.fdatasync(fd);
      return undefined;
    } catch (error) {
      return errorCode(error);
    } finally {
      if (fd !== undefined) this.ops.closeSync(fd);
      try {
        this.ops.unlinkSync(path);
      } catch {
        /* never created */
      }
    }
  }
}

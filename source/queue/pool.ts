/**
 * A counting semaphore with a FIFO of waiters: the global cap on concurrent
 * turns of one kind (main, subagent, cron).
 */
export class Pool {
  private activeCount = 0;
  private readonly waiters: Array<{ owner: string; grant: () => void }> = [];

  constructor(
    readonly name: string,
    readonly limit: number,
  ) {}

  get active(): number {
    return this.activeCount;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  /** Calls `grant` now or when a slot frees; a lane waits at most once at a time. */
  request(owner: string, grant: () => void): void {
    if (this.activeCount < this.limit) {
      this.activeCount += 1;
      grant();
      return;
    }
    this.waiters.push({ owner, grant });
  }

  cancel(owner: string): void {
    const index = this.waiters.findIndex((w) => w.owner === owner);
    if (index >= 0) this.waiters.splice(index, 1);
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) {
      next.grant();
      return;
    }
    this.activeCount -= 1;
  }
}

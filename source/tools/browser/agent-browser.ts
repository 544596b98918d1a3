import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { chromiumArgs, type BrowserExecutable } from './launch.js';
import { NetworkGuard, type NetworkGuardOptions, type Refusal } from './network-guard.js';

export interface Tab {
  id: string;
  page: Page;
  /** The session that opened it (or whose page opened it): `tabs` lists a session's own. */
  sessionKey: string;
  /** Counts new documents: refs belong to one load, so a ref from an earlier one is stale. */
  load: number;
  /** The load the last snapshot was taken of, and what it showed (for `[new]` and deltas). */
  seenLoad?: number;
  seen?: Set<string>;
  /** Every ref the last snapshot had, and refs of earlier snapshots (to tell a stale ref from a made-up one). */
  refs: Set<string>;
  oldRefs: Set<string>;
  lastUsed: number;
  /** URLs this tab asked for lately, to tell its own refused requests from Chromium's background ones. */
  requested: Set<string>;
}

export interface AgentBrowserOptions {
  agentId: string;
  /** `<state>/browser/<agent>`. */
  dir: string;
  executable: () => BrowserExecutable;
  guard: Omit<NetworkGuardOptions, 'resolve'>;
  timeoutMs: () => number;
  now: () => number;
  /** A session's tabs changed: opened, loaded a page, closed, or gone with the browser. */
  onTabs?: (sessionKey: string) => void;
}

export class BrowserUnavailable extends Error {}

const RECENT_REQUESTS = 200;

/**
 * One agent's Chromium: its own profile, its own guard, its tabs. Started on
 * first use; when it crashed or hung, the next call starts a fresh one and
 * says so (`restarted`).
 */
export class AgentBrowser {
  readonly #options: AgentBrowserOptions;
  #context: BrowserContext | undefined;
  #guard: NetworkGuard | undefined;
  #starting: Promise<BrowserContext> | undefined;
  #nextTab = 1;
  /** Why the last browser went away without being asked to: told once, by the next call. */
  #lost: string | undefined;
  readonly tabs = new Map<string, Tab>();
  /** Each session's current tab. */
  readonly current = new Map<string, string>();
  /** Hosts marked `ask` the owner let this agent visit. */
  readonly approvedSites = new Set<string>();

  constructor(options: AgentBrowserOptions) {
    this.#options = options;
  }

  get running(): boolean {
    return this.#context !== undefined;
  }

  /** The reason the browser had to be restarted, once. */
  takeLost(): string | undefined {
    const lost = this.#lost;
    this.#lost = undefined;
    return lost;
  }

  async context(): Promise<BrowserContext> {
    if (this.#context) return this.#context;
    this.#starting ??= this.#start().finally(() => {
      this.#starting = undefined;
    });
    return this.#starting;
  }

  async #start(): Promise<BrowserContext> {
    const executable = this.#options.executable();
    if ('error' in executable) throw new BrowserUnavailable(executable.error);
    const guard = new NetworkGuard(this.#options.guard);
    const proxy = await guard.listen();
    // Loaded on first use: Playwright is most of the browser's weight, and most gateways never start one.
    const { chromium } = await import('playwright-core');
    const profile = join(this.#options.dir, 'profile');
    // A gateway killed mid-run leaves Chromium's lock behind; it belongs to no running browser (one per agent per gateway).
    for (const lock of ['SingletonLock', 'SingletonSocket', 'SingletonCookie']) rmSync(join(profile, lock), { force: true });
    let context: BrowserContext;
    try {
      context = await chromium.launchPersistentContext(profile, {
        executablePath: executable.path,
        headless: true,
        args: chromiumArgs(proxy),
        acceptDownloads: true,
        downloadsPath: join(this.#options.dir, 'downloads'),
        timeout: Math.max(30_000, this.#options.timeoutMs()),
        serviceWorkers: 'block',
        viewport: { width: 1280, height: 800 },
      });
    } catch (error) {
      await guard.close();
      throw new BrowserUnavailable(`Chromium did not start: ${(error as Error).message.split('\n')[0]}`);
    }
    context.setDefaultTimeout(this.#options.timeoutMs());
    context.setDefaultNavigationTimeout(this.#options.timeoutMs());
    context.on('close', () => {
      if (this.#context !== context) return;
      this.#lost = 'the browser stopped unexpectedly (it crashed or was killed)';
      void this.#forget()?.close();
    });
    this.#context = context;
    this.#guard = guard;
    // The blank page a persistent context opens with belongs to nobody.
    for (const page of context.pages()) await page.close().catch(() => {});
    return context;
  }

  /** Opens a tab for `sessionKey` and makes it that session's current one. */
  async open(sessionKey: string): Promise<Tab> {
    const context = await this.context();
    const page = await context.newPage();
    return this.adopt(page, sessionKey);
  }

  adopt(page: Page, sessionKey: string): Tab {
    const tab: Tab = {
      id: `t${this.#nextTab++}`,
      page,
      sessionKey,
      load: 0,
      lastUsed: this.#options.now(),
      requested: new Set(),
      refs: new Set(),
      oldRefs: new Set(),
    };
    page.on('domcontentloaded', () => {
      tab.load += 1;
      this.#options.onTabs?.(sessionKey);
    });
    page.on('request', (request) => {
      tab.requested.add(request.url());
      if (tab.requested.size > RECENT_REQUESTS) tab.requested.delete(tab.requested.values().next().value!);
    });
    // A page that opens a window (target=_blank, window.open) gives the session another tab, not a hidden one.
    page.on('popup', (popup) => {
      const opened = this.adopt(popup, sessionKey);
      this.current.set(sessionKey, opened.id);
    });
    page.on('close', () => {
      this.tabs.delete(tab.id);
      if (this.current.get(sessionKey) === tab.id) {
        const other = [...this.tabs.values()].reverse().find((t) => t.sessionKey === sessionKey);
        if (other) this.current.set(sessionKey, other.id);
        else this.current.delete(sessionKey);
      }
      this.#options.onTabs?.(sessionKey);
    });
    this.tabs.set(tab.id, tab);
    this.current.set(sessionKey, tab.id);
    this.#options.onTabs?.(sessionKey);
    return tab;
  }

  sessionTabs(sessionKey: string): Tab[] {
    return [...this.tabs.values()].filter((tab) => tab.sessionKey === sessionKey);
  }

  /** Requests the guard refused for this tab since the last call. */
  refusalsFor(tab: Tab): Refusal[] {
    const all = this.#guard?.takeRefusals() ?? [];
    return all.filter((refusal) => {
      if (tab.requested.has(refusal.url)) return true;
      // A refused tunnel names only host:port; it is the tab's when the tab asked for that origin.
      const origin = /^(https|tunnel):\/\/(.+)$/.exec(refusal.url)?.[2];
      return origin !== undefined && [...tab.requested].some((url) => url.includes(`//${origin.replace(/:443$/, '')}`));
    });
  }

  /** Closes the tabs nobody used for `idleMs`; the browser stops when none is left. */
  async sweepIdle(idleMs: number): Promise<void> {
    const now = this.#options.now();
    for (const tab of [...this.tabs.values()]) if (now - tab.lastUsed >= idleMs) await tab.page.close().catch(() => {});
    if (this.tabs.size === 0 && this.#context) await this.stop();
  }

  /** Whether the browser process itself answers (a page stuck in a script does not make it unresponsive). */
  async responsive(withinMs: number): Promise<boolean> {
    const context = this.#context;
    if (!context) return false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), withinMs);
    });
    const answered = context.cookies().then(
      () => true,
      () => false,
    );
    return Promise.race([answered, late]).finally(() => clearTimeout(timer));
  }

  /** After a hang: the browser is killed (a hung one does not answer a close) and the next call starts a fresh one. */
  async restart(reason: string): Promise<void> {
    const guard = this.#forget();
    killProfileProcesses(join(this.#options.dir, 'profile'));
    await guard?.close();
    this.#lost = reason;
  }

  async stop(): Promise<void> {
    const context = this.#context;
    const guard = this.#forget();
    if (context) await Promise.race([context.close().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
    await guard?.close();
  }

  /** Drops the running browser's state; returns its guard for the caller to close. */
  #forget(): NetworkGuard | undefined {
    const guard = this.#guard;
    const sessions = new Set([...this.tabs.values()].map((tab) => tab.sessionKey));
    this.#context = undefined;
    this.#guard = undefined;
    this.tabs.clear();
    this.current.clear();
    for (const sessionKey of sessions) this.#options.onTabs?.(sessionKey);
    return guard;
  }
}

/**
 * SIGKILLs every process started with this profile (Chromium and its helpers,
 * inside or outside the sandbox), found by their command lines in /proc.
 */
function killProfileProcesses(profile: string): void {
  const marker = `--user-data-dir=${profile}`;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return;
  }
  for (const pid of pids) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (args.includes(marker)) process.kill(Number(pid), 'SIGKILL');
    } catch {}
  }
}

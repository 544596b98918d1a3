import { createBrowser, type BrowserHandle, type ToolsRuntime } from '../tools/index.js';
import type { CorePorts } from './ports.js';
import type { Service, ServiceHealth } from './service.js';

export type BrowserPorts = Pick<CorePorts, 'tools' | 'config' | 'paths' | 'env' | 'clients'>;

const SWEEP_INTERVAL_MS = 60_000;

/**
 * The browser as a long-lived tool: the `browser` tool is registered while
 * `tools.browser.enabled` is on; Chromium itself starts at the first call,
 * its idle tabs are closed, and it stops with the gateway.
 */
export class BrowserService implements Service {
  readonly name = 'browser';
  #handle: BrowserHandle | undefined;
  #registered = false;
  #sweep: NodeJS.Timeout | undefined;
  #unsubscribe: (() => void) | undefined;

  constructor(private readonly runtime: Pick<ToolsRuntime, 'sandbox' | 'redactor'>) {}

  start(ports: BrowserPorts): void {
    const handle = createBrowser({
      tools: () => ports.config.current.tools,
      paths: ports.paths,
      sandbox: this.runtime.sandbox,
      redactor: this.runtime.redactor,
      env: ports.env,
      onTabs: (agentId, sessionKey, tabs) => ports.clients.emit('browser.tabs', { agentId, sessionKey, tabs }),
    });
    this.#handle = handle;
    const apply = () => {
      const enabled = ports.config.current.tools.browser.enabled;
      if (enabled && !this.#registered) ports.tools.register(handle.tool);
      if (!enabled && this.#registered) ports.tools.unregister(handle.tool.name);
      this.#registered = enabled;
    };
    apply();
    this.#unsubscribe = ports.config.onChange((changed) => {
      if (changed.some((key) => key.startsWith('tools'))) apply();
    });
    this.#sweep = setInterval(() => void handle.sweepIdle(), SWEEP_INTERVAL_MS);
    this.#sweep.unref();
  }

  async stop(): Promise<void> {
    if (this.#sweep) clearInterval(this.#sweep);
    this.#unsubscribe?.();
    await this.#handle?.stop();
  }

  /** Sessions with open tabs, for the hello snapshot. */
  tabs(): ReturnType<BrowserHandle['tabs']> {
    return this.#handle?.tabs() ?? [];
  }

  health(): ServiceHealth {
    return { ok: true, detail: this.#handle?.running ? 'running' : 'starts on first use' };
  }
}

import { join } from 'node:path';
import { z } from 'zod';
import type { SlashCommand } from '../agent/index.js';
import { agentWorkspaceDir, PACKAGE_ROOT } from '../config/index.js';
import type { CorePorts, Service, ServiceHealth } from '../core/index.js';
import type { PluginInfo } from '../protocol/index.js';
import { defaultAgentId, mainSessionKey } from '../routing/index.js';
import { describeContributions, describePermissions, type PluginManifest } from './manifest.js';
import { RunningPlugin } from './running-plugin.js';
import { pluginInfo, recordStatus } from './plugin-info.js';
import { grantPlugin, inspectPlugin, installedIds, pluginPaths, type PluginPaths, type PluginRecord, type PluginState } from './store.js';

export type PluginsPorts = Pick<CorePorts, 'tools' | 'commands' | 'lifecycle' | 'models' | 'config' | 'env' | 'log' | 'paths' | 'clients' | 'clock'>;

/** The process every plugin runs in (a plain module shipped beside the bundle). */
export const PLUGIN_RUNTIME_FILE = join(PACKAGE_ROOT, 'plugin-runtime', 'child.mjs');

interface Slot {
  state: PluginState;
  error?: string;
  running?: RunningPlugin;
  /** The lock hash the running process was started from: a reinstall restarts it. */
  sha256?: string;
  firstCallMs?: number;
}

/**
 * The plugin host: starts one sandboxed process per enabled plugin whose
 * package matches `plugins.lock` and whose manifest asks for nothing beyond
 * its grant, registers what it contributes, and quarantines a plugin that
 * crashes, hangs or floods while the rest of claw carries on. Installed
 * is not enabled; nothing from a workspace is ever loaded on its own.
 */
export class PluginsService implements Service {
  readonly name = 'plugins';
  readonly #slots = new Map<string, Slot>();
  #ports: PluginsPorts | undefined;
  #paths: PluginPaths | undefined;
  #unsubscribe: (() => void) | undefined;
  #reloading: Promise<void> = Promise.resolve();
  #lastSent = '[]';

  constructor(private readonly runtimeFile = PLUGIN_RUNTIME_FILE) {}

  start(ports: PluginsPorts): void {
    this.#ports = ports;
    this.#paths = pluginPaths(ports.paths);
    ports.commands.addSource((reserved) => this.#commands(reserved));
    this.#unsubscribe = ports.config.onChange((changed) => {
      if (changed.some((key) => key === 'plugins' || key.startsWith('plugins.'))) this.#applyConfig();
    });
  }

  /** Plugins start in the background once the gateway listens: none is on the way to ready. */
  warm(): Promise<void> {
    return this.reload();
  }

  /** Re-reads what is installed and granted: starts what should run, stops what should not. */
  reload(): Promise<void> {
    this.#reloading = this.#reloading
      .then(async () => {
        await this.#reconcile();
        this.#changed();
      })
      // A broken plugins.lock or grants.json is said, and the next reload runs all the same.
      .catch((error: unknown) => this.#ports?.log.warn(`plugins: ${error instanceof Error ? error.message : String(error)}`));
    return this.#reloading;
  }

  /**
   * Asks the owner to grant what the plugin's manifest lists (an approval of
   * kind `plugin` in the owner's main session: the TUI prompts for it), and
   * runs it once granted.
   */
  async enable(id: string, requestedBy: string): Promise<{ approved: boolean; plugin: PluginInfo }> {
    const ports = this.#ports;
    if (!ports || !this.#paths || !installedIds(this.#paths).includes(id)) throw new Error(`no plugin "${id}" is installed (\`claw plugins list\`).`);
    const record = this.#record(id);
    if (record.problem || !record.manifest) throw new Error(`${id} cannot run: ${record.problem}`);
    const manifest = record.manifest;
    const agentId = defaultAgentId(ports.config.current);
    const gate = ports.tools.approvals.gate(agentId, mainSessionKey(agentId));
    const outcome = await gate.request({
      kind: 'plugin',
      command: `enable plugin ${id} ${manifest.version}: ${describePermissions(manifest.permissions).join('; ')}`,
      binding: `${id}@${record.lock?.sha256 ?? manifest.version}`,
      cwd: this.#paths.dir(id),
      envKeys: manifest.permissions.env,
      reason: `${requestedBy} asked to enable it (${describeContributions(manifest.contributes, id).join('; ') || 'no contributions'})`,
    });
    if (outcome.approved) {
      grantPlugin(this.#paths, id, manifest.permissions, ports.clock.now());
      await this.reload();
    }
    return { approved: outcome.approved, plugin: this.list().find((plugin) => plugin.id === id) ?? this.#info(record) };
  }

  /** Stops and starts one plugin again (after a quarantine). */
  async restart(id: string): Promise<PluginInfo> {
    await this.#reloading;
    const slot = this.#slots.get(id);
    await slot?.running?.stop();
    this.#slots.delete(id);
    await this.reload();
    return this.list().find((plugin) => plugin.id === id) ?? this.#info(this.#record(id));
  }

  list(): PluginInfo[] {
    if (!this.#paths) return [];
    return installedIds(this.#paths).map((id) => this.#info(this.#record(id, false)));
  }

  health(): ServiceHealth {
    const slots = [...this.#slots.entries()];
    if (slots.length === 0) return { ok: true, detail: 'none installed' };
    const failed = slots.filter(([, slot]) => slot.state === 'error');
    const running = slots.filter(([, slot]) => slot.state === 'running').length;
    const detail = `${running} running${failed.length > 0 ? `; quarantined: ${failed.map(([id, slot]) => `${id} (${slot.error})`).join('; ')}` : ''}`;
    return { ok: true, detail };
  }

  async stop(): Promise<void> {
    this.#unsubscribe?.();
    await this.#reloading;
    await Promise.all([...this.#slots.values()].map((slot) => slot.running?.stop()));
    this.#slots.clear();
  }

  #record(id: string, verifyHash = true): PluginRecord {
    if (!this.#paths) throw new Error('the plugins service is not started');
    return inspectPlugin(this.#paths, id, { verifyHash });
  }

  async #reconcile(): Promise<void> {
    const paths = this.#paths;
    if (!paths) return;
    const ids = new Set(installedIds(paths));
    for (const [id, slot] of this.#slots) {
      if (ids.has(id)) continue;
      await slot.running?.stop();
      this.#slots.delete(id);
    }
    for (const id of ids) {
      const record = this.#record(id);
      const slot = this.#slots.get(id);
      const status = recordStatus(record);
      if (status.state !== 'starting') {
        await slot?.running?.stop();
        this.#slots.set(id, status);
        continue;
      }
      // Running from the same package, or quarantined until the owner restarts it: leave it be.
      if (slot && slot.sha256 === record.lock?.sha256 && (slot.state === 'running' || slot.state === 'starting' || slot.state === 'error')) continue;
      await slot?.running?.stop();
      await this.#start(record);
    }
  }

  async #start(record: PluginRecord): Promise<void> {
    const ports = this.#ports;
    const paths = this.#paths;
    const manifest = record.manifest;
    if (!ports || !paths || !manifest || !record.grant) return;
    const slot: Slot = { state: 'starting', ...(record.lock ? { sha256: record.lock.sha256 } : {}) };
    this.#slots.set(record.id, slot);
    const fail = (reason: string) => {
      if (this.#slots.get(record.id) !== slot) return;
      slot.state = 'error';
      slot.error = reason;
      delete slot.running;
      ports.log.warn(`plugin ${record.id} quarantined: ${reason} (\`claw plugins restart ${record.id}\` once fixed)`);
      this.#changed();
    };
    const config = this.#configFor(manifest);
    if ('error' in config) return fail(config.error);
    const config$ = ports.config.current;
    const agentId = defaultAgentId(config$);
    let running: RunningPlugin;
    try {
      running = new RunningPlugin({
        manifest,
        granted: record.grant.permissions,
        paths,
        runtimeFile: this.runtimeFile,
        roots: { workspace: agentWorkspaceDir(config$, ports.paths, agentId), plugin: paths.dir(record.id), state: ports.paths.root },
        config: config.value,
        callTimeoutMs: config$.plugins.callTimeoutMs,
        maxMemoryMb: config$.plugins.maxMemoryMb,
        ports,
        onFailure: fail,
      });
    } catch (error) {
      return fail((error as Error).message);
    }
    slot.running = running;
    try {
      await running.start();
      if (slot.state === 'starting') {
        slot.state = 'running';
        slot.firstCallMs = running.readyAt - running.startedAt;
        ports.log.info(`plugin ${record.id} ${manifest.version} running (pid ${running.pid}, ready in ${slot.firstCallMs} ms)`);
      }
    } catch (error) {
      await running.stop();
      fail(`did not start: ${(error as Error).message}`);
    }
  }

  /** Tells clients the list changed, when it did. */
  #changed(): void {
    const plugins = this.list();
    const text = JSON.stringify(plugins);
    if (text === this.#lastSent) return;
    this.#lastSent = text;
    this.#ports?.clients.emit('plugins.status', { plugins });
  }

  #configFor(manifest: PluginManifest): { value: Record<string, unknown> } | { error: string } {
    const value = this.#ports?.config.current.plugins.entries[manifest.id]?.config ?? {};
    if (!manifest.configSchema) return { value };
    try {
      const schema = z.fromJSONSchema(manifest.configSchema as Parameters<typeof z.fromJSONSchema>[0]);
      const parsed = schema.safeParse(value);
      if (parsed.success) return { value: parsed.data as Record<string, unknown> };
      const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(config)'}: ${issue.message}`).join('; ');
      return { error: `plugins.entries.${manifest.id}.config does not match the plugin's configSchema: ${issues}` };
    } catch (error) {
      return { error: `the plugin's configSchema is not a JSON Schema claw can read: ${(error as Error).message}` };
    }
  }

  #applyConfig(): void {
    for (const [id, slot] of this.#slots) {
      const manifest = slot.running && this.#record(id, false).manifest;
      if (!manifest || !slot.running) continue;
      const config = this.#configFor(manifest);
      if ('error' in config) this.#ports?.log.warn(`${config.error}; the plugin keeps its previous config.`);
      else slot.running.updateConfig(config.value);
    }
  }

  #commands(reserved: ReadonlySet<string>): SlashCommand[] {
    const out: SlashCommand[] = [];
    const taken = new Set(reserved);
    for (const slot of this.#slots.values()) {
      if (slot.state !== 'running') continue;
      for (const command of slot.running?.commands ?? []) {
        if (taken.has(command.name)) continue;
        taken.add(command.name);
        out.push(command);
      }
    }
    return out;
  }

  #info(record: PluginRecord): PluginInfo {
    const slot = this.#slots.get(record.id);
    if (!slot) return pluginInfo(record);
    const pid = slot.state === 'running' ? slot.running?.pid : undefined;
    return pluginInfo(record, {
      state: slot.state,
      ...(slot.error ? { error: slot.error } : {}),
      ...(pid !== undefined ? { pid } : {}),
      ...(slot.firstCallMs !== undefined ? { startMs: slot.firstCallMs } : {}),
    });
  }
}

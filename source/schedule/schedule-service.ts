import { join } from 'node:path';
import type { ClawConfig, TimerHandle } from '../config/index.js';
import type { CorePorts, Service, ServiceHealth } from '../core/index.js';
import {
  quietRunEntry,
  runNoticeEntry,
  type BackgroundSource,
  type CronJob,
  type CronJobInput,
  type CronJobPatch,
  type CronRun,
  type HeartbeatAgentStatus,
  type ReplyRoute,
  type ScheduleOverview,
} from '../protocol/index.js';
import { defaultAgentId, mainSessionKey } from '../routing/index.js';
import { CronService } from './cron-service.js';
import { HeartbeatRunner, type HeartbeatAgent, type SystemEvent } from './heartbeat-runner.js';
import { ScheduleError } from './schedule-math.js';
import { cronTool, heartbeatRespondTool } from './schedule-tools.js';

/** The `schedule` event carries this many of the soonest jobs (plus any running one). */
const GLANCE_JOBS = 20;
const GLANCE_EVERY_MS = 500;

function agentIdsOf(config: ClawConfig): string[] {
  return config.agents.list.length > 0 ? config.agents.list.map((agent) => agent.id) : [defaultAgentId(config)];
}

function heartbeatAgentsOf(config: ClawConfig): HeartbeatAgent[] {
  return agentIdsOf(config).map((agentId) => {
    const override = config.agents.list.find((agent) => agent.id === agentId)?.heartbeat ?? {};
    const merged = { ...config.agents.defaults.heartbeat, ...override };
    return { agentId, sessionKey: merged.session ?? mainSessionKey(agentId), config: merged };
  });
}

/** What the schedule uses of the daemon. */
export type SchedulePorts = Pick<
  CorePorts,
  'clock' | 'config' | 'paths' | 'log' | 'inbound' | 'outbound' | 'turns' | 'lanes' | 'sessions' | 'tools' | 'models' | 'workspaces' | 'clients' | 'spend'
>;

/**
 * Heartbeat and cron as one daemon service. It reaches the rest of the
 * daemon only through its ports: inbound to start turns, the `cron` and
 * `heartbeat` outcomes to learn how they ended (quiet replies go nowhere),
 * turn events for busy lanes and crash replays, the tool registry for `cron`
 * and `heartbeat_respond`, outbound for announces to a chat.
 */
export class ScheduleService implements Service {
  readonly name = 'schedule';
  #core: SchedulePorts | undefined;
  #cron: CronService | undefined;
  #heartbeat: HeartbeatRunner | undefined;
  readonly #notices: string[] = [];
  #cleanup: Array<() => void> = [];
  #glanceTimer: TimerHandle | undefined;

  async start(core: SchedulePorts): Promise<void> {
    this.#core = core;
    const { clock } = core;
    const tokensOf = (sessionKey: string): number => {
      const tokens = core.sessions.get(sessionKey)?.entry.tokens;
      return tokens ? tokens.input + tokens.output : 0;
    };
    const notice = (text: string): void => {
      this.#notices.push(text);
      core.log.warn(text);
    };
    const cron = new CronService({
      clock,
      cronDir: core.paths.cron,
      dispatch: (job, messageId) => this.#dispatchCron(job, messageId),
      blockedReason: (job) => this.#blockedReason(job),
      budgetProblem: (job) =>
        core.spend.exhausted({
          agentId: job.agentId,
          sessionKey: job.sessionTarget === 'isolated' ? `cron:${job.id}` : `agent:${job.agentId}:main`,
          kind: 'cron',
        }),
      announce: (job, text, runId) => this.#announce(job, text, runId),
      tokensOf,
      abort: (sessionKey, runId) => void core.lanes.abort(sessionKey, runId),
      replayOf: (messageId) => core.inbound.replayOf('cron', messageId),
      emit: (payload) => {
        core.clients.emit('cron', payload);
        this.#changed();
      },
      notice,
      jobContext: (createdBy) => {
        const config = core.config.current;
        return {
          now: clock.now(),
          agentIds: agentIdsOf(config),
          defaultAgentId: defaultAgentId(config),
          checkModel: (ref) => {
            try {
              core.models.resolve(ref);
            } catch (error) {
              throw new ScheduleError(
                `Model "${ref}" is not available: ${error instanceof Error ? error.message : String(error)}. Pick one from \`claw models list\`.`,
              );
            }
          },
          createdBy,
        };
      },
      warn: (message) => core.log.warn(message),
    });
    const heartbeat = new HeartbeatRunner({
      clock,
      statePath: join(core.paths.cron, 'heartbeat.json'),
      agents: () => heartbeatAgentsOf(core.config.current),
      workspaceDir: (agentId) => core.workspaces.dir(agentId),
      laneBusy: (sessionKey) => {
        const lane = core.lanes.info(sessionKey);
        return lane.running || lane.queued > 0;
      },
      modelProblem: (ref) => core.models.problem(ref),
      budgetProblem: (agent) => core.spend.exhausted({ agentId: agent.agentId, sessionKey: agent.sessionKey, kind: 'heartbeat' }),
      dispatch: async (agent, messageId, text) => {
        const result = await core.inbound.accept({
          channel: 'heartbeat',
          sessionKey: agent.sessionKey,
          messageId,
          text,
          peer: { kind: 'direct', id: agent.agentId },
          senderName: 'heartbeat',
          // Its own turn, never merged with the owner's messages, and out of the chat unless it alerts.
          queueMode: 'followup',
          background: true,
          ...(agent.config.model !== undefined ? { model: agent.config.model } : {}),
        });
        return { runId: result.runId };
      },
      markQuiet: async (agent, messageId) => {
        const session = await core.sessions.open(agent.sessionKey);
        session.append(quietRunEntry(messageId));
      },
      deliverAlert: (agent, text, runId) => this.#deliverAlert(agent, text, runId),
      tokensOf,
      emit: (payload) => {
        core.clients.emit('heartbeat', payload);
        this.#changed();
      },
      notice,
      warn: (message) => core.log.warn(message),
    });
    this.#cron = cron;
    this.#heartbeat = heartbeat;
    // A cron or heartbeat turn ends here, never in a chat: only what it announces goes anywhere.
    this.#cleanup.push(
      core.turns.onOutcome('cron', (outcome) => void cron.outcome(outcome.messageId, outcome.status, outcome.text, outcome.failure)),
      core.turns.onOutcome('heartbeat', (outcome) => void heartbeat.outcome(outcome.messageId, outcome.status, outcome.text)),
      core.turns.on('turn.start', ({ sessionKey, runId }) => cron.turnStarted(sessionKey, runId)),
      core.turns.on('turn.end', ({ sessionKey }) => heartbeat.turnEnded(sessionKey)),
      core.config.onChange((keys) => {
        if (keys.some((key) => key === 'agents' || key.startsWith('agents.'))) heartbeat.reconfigure();
      }),
    );
    for (const tool of [cronTool({ cron, heartbeat, agentOf: (key) => core.sessions.resolve(key).agentId }), heartbeatRespondTool(heartbeat)]) {
      core.tools.register(tool);
      this.#cleanup.push(() => core.tools.unregister(tool.name));
    }
    await cron.start();
    heartbeat.start();
    // Runs the journal replayed before this service started are caught here; later ones by turn:start.
    for (const { sessionKey, runId } of core.lanes.running()) cron.turnStarted(sessionKey, runId);
  }

  /** No new cron slot or heartbeat starts once a drain begins; running turns may still finish. */
  async drain(): Promise<void> {
    this.#cron?.halt();
    this.#heartbeat?.halt();
  }

  async stop(): Promise<void> {
    if (this.#glanceTimer) this.#core?.clock.clearTimer(this.#glanceTimer);
    this.#glanceTimer = undefined;
    for (const cleanup of this.#cleanup.splice(0)) cleanup();
    await Promise.all([this.#cron?.stop(), this.#heartbeat?.stop()]);
  }

  health(): ServiceHealth {
    const cron = this.#cron;
    if (!cron) return { ok: true, detail: 'not started' };
    const next = cron.nextRuns(1)[0];
    const notices = this.notices();
    return {
      ok: true,
      detail: `${cron.list().length} cron job(s)${next ? `, next "${next.name}" at ${new Date(next.at).toISOString()}` : ''}${notices.length ? `; ${notices[notices.length - 1]}` : ''}`,
    };
  }

  get started(): boolean {
    return this.#cron !== undefined;
  }

  notices(): string[] {
    return [...this.#notices];
  }

  overview(): ScheduleOverview {
    return { jobs: this.cron.list(), heartbeats: this.heartbeat.status(), notices: this.notices() };
  }

  /** What a client's schedule pane shows: the soonest and the running jobs, not all of a thousand. */
  glance(): ScheduleOverview {
    const jobs = this.cron.list();
    const shown = jobs.filter((job, index) => index < GLANCE_JOBS || job.state.runningSince !== undefined);
    return { jobs: shown, heartbeats: this.heartbeat.status(), notices: this.notices(), totalJobs: jobs.length };
  }

  /** Something in the schedule changed: one `schedule` event for a burst of changes. */
  #changed(): void {
    const core = this.#core;
    if (!core || this.#glanceTimer) return;
    this.#glanceTimer = core.clock.setTimer(() => {
      this.#glanceTimer = undefined;
      if (this.#cron && this.#heartbeat) core.clients.emit('schedule', this.glance());
    }, GLANCE_EVERY_MS);
  }

  /** A removed job's run log stays readable. */
  runs(id: string, limit?: number): CronRun[] {
    const runs = this.cron.runs(id, limit);
    if (runs.length === 0) this.#require(id);
    return runs;
  }

  add(input: CronJobInput, createdBy = 'user'): Promise<CronJob> {
    return this.cron.add(input, createdBy);
  }

  async update(id: string, patch: CronJobPatch): Promise<CronJob> {
    this.#require(id);
    return this.cron.update(id, patch);
  }

  remove(id: string): boolean {
    return this.cron.remove(id);
  }

  run(id: string): CronRun {
    this.#require(id);
    return this.cron.runNow(id);
  }

  /** Runs the heartbeat once now; refused with the reason when it is off or paused (a wake would only be skipped). */
  heartbeatNow(agentId?: string): void {
    const id = this.#agent(agentId);
    const status = this.heartbeat.status().find((s) => s.agentId === id);
    if (!status?.enabled) {
      throw new ScheduleError(
        `The heartbeat of agent "${id}" is off (heartbeat.every: 0), so it will not run; turn it on with \`claw config set agents.defaults.heartbeat.every 30m\`.`,
      );
    }
    if (status.paused) throw new ScheduleError(`The heartbeat of agent "${id}" is paused, so it will not run; \`claw heartbeat resume\` turns it back on.`);
    this.heartbeat.wake(id, 'manual');
  }

  /**
   * A system event (a webhook's wake) for an agent's heartbeat, on disk before
   * this resolves; refused when that agent's heartbeat is off, since it would never run.
   */
  async queueSystemEvent(agentId: string | undefined, event: SystemEvent, wakeNow: boolean): Promise<{ nextRunAt?: number; pending: number }> {
    const id = this.#agent(agentId);
    const status = this.heartbeat.status().find((s) => s.agentId === id);
    if (!status?.enabled) {
      throw new ScheduleError(
        `The heartbeat of agent "${id}" is off (heartbeat.every: 0), so a next-heartbeat event would never run; send it with mode "now" or turn the heartbeat on.`,
      );
    }
    return this.heartbeat.queueEvent(id, event, wakeNow);
  }

  pauseHeartbeat(agentId: string | undefined, paused: boolean): HeartbeatAgentStatus {
    return this.heartbeat.pause(this.#agent(agentId), paused);
  }

  /** Resolves when the work started so far (turn dispatches, deliveries, saves) has settled. */
  async settled(): Promise<void> {
    await Promise.all([this.cron.settled(), this.heartbeat.settled()]);
  }

  get cron(): CronService {
    if (!this.#cron) throw new Error('the schedule service has not started');
    return this.#cron;
  }

  get heartbeat(): HeartbeatRunner {
    if (!this.#heartbeat) throw new Error('the schedule service has not started');
    return this.#heartbeat;
  }

  #require(id: string): void {
    if (!this.cron.get(id)) throw new ScheduleNotFound(`No cron job "${id}". List the jobs with \`claw cron list\`.`);
  }

  #agent(agentId: string | undefined): string {
    const config = this.#core!.config.current;
    const id = agentId ?? defaultAgentId(config);
    if (!agentIdsOf(config).includes(id)) throw new ScheduleNotFound(`Unknown agent "${id}". Known agents: ${agentIdsOf(config).join(', ')}.`);
    return id;
  }

  async #dispatchCron(job: CronJob, messageId: string): Promise<{ runId: string; sessionKey: string }> {
    const core = this.#core!;
    const isolated = job.payload.kind === 'agentTurn';
    const sessionKey = isolated ? `cron:${job.id}` : mainSessionKey(job.agentId);
    if (job.payload.kind === 'agentTurn' && job.payload.model) {
      core.sessions.ensure(sessionKey);
      core.sessions.patch(sessionKey, { model: job.payload.model });
    }
    const text = job.payload.kind === 'systemEvent' ? `[cron: ${job.name}] ${job.payload.text}` : job.payload.message;
    const result = await core.inbound.accept({
      channel: 'cron',
      sessionKey,
      messageId,
      text,
      peer: { kind: 'direct', id: job.id },
      senderName: `cron ${job.name}`,
      // A system event in the main session shows only through its announce, never as a second chat stream.
      ...(isolated ? {} : { queueMode: 'followup' as const, background: true }),
    });
    return { runId: result.runId, sessionKey };
  }

  #blockedReason(job: CronJob): string | undefined {
    const core = this.#core!;
    const config = core.config.current;
    if (!agentIdsOf(config).includes(job.agentId))
      return `agent "${job.agentId}" no longer exists in claw.json; point the job at another agent (claw cron edit ${job.id} --agent <id>)`;
    const model = job.payload.kind === 'agentTurn' ? job.payload.model : undefined;
    if (model) {
      try {
        core.models.resolve(model);
      } catch (error) {
        return `model "${model}" is not available (${error instanceof Error ? error.message : String(error)}); change it with claw cron edit ${job.id} --model <ref>`;
      }
    }
    if (job.delivery.mode === 'announce' && job.delivery.to !== 'main' && !job.delivery.to.peer) {
      return `the delivery route on channel "${job.delivery.to.channel}" names no peer; set one with claw cron edit ${job.id} --announce <channel>:<peer>`;
    }
    return undefined;
  }

  async #announce(job: CronJob, text: string, runId: string): Promise<{ delivered: boolean; messageId?: string; error?: string }> {
    const to = job.delivery.mode === 'announce' ? job.delivery.to : 'main';
    return this.#deliver(to, mainSessionKey(job.agentId), `[cron: ${job.name}] ${text}`, runId, 'cron');
  }

  async #deliverAlert(agent: HeartbeatAgent, text: string, runId: string): Promise<{ delivered: boolean; messageId?: string; error?: string }> {
    const { target } = agent.config;
    if (target === 'none') return { delivered: true };
    return this.#deliver(target === 'last' ? 'main' : target, agent.sessionKey, text, runId, 'heartbeat');
  }

  /**
   * `main`: a chat line in the session, kept in its transcript (the run itself
   * is hidden from chat views) and shown live; a route: the channel's outbound half.
   */
  async #deliver(
    to: 'main' | ReplyRoute,
    sessionKey: string,
    text: string,
    runId: string,
    source: BackgroundSource,
  ): Promise<{ delivered: boolean; messageId?: string; error?: string }> {
    const core = this.#core!;
    const deliveryRunId = `${runId}:announce`;
    if (to === 'main') {
      let entryId: string | undefined;
      try {
        const session = await core.sessions.open(sessionKey);
        entryId = session.append(runNoticeEntry({ source, text, runId }))[0]?.id;
      } catch (error) {
        return { delivered: false, error: `not written to ${sessionKey}: ${error instanceof Error ? error.message : String(error)}` };
      }
      core.clients.emit('chat', { runId: deliveryRunId, sessionKey, state: 'final', text, ...(entryId ? { entryId } : {}) });
      return { delivered: true, messageId: entryId ? `entry:${entryId}` : `chat:${deliveryRunId}` };
    }
    const result = await core.outbound.deliver(to, { sessionKey, runId: deliveryRunId, messageId: deliveryRunId, status: 'replied', text });
    return { delivered: result.delivered, ...(result.messageId ? { messageId: result.messageId } : {}), ...(result.error ? { error: result.error } : {}) };
  }
}

/** A job or agent the caller named does not exist. */
export class ScheduleNotFound extends Error {
  override readonly name = 'ScheduleNotFound';
}

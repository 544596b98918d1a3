import { hostname } from 'node:os';
import { CLAW_VERSION } from '../../config/index.js';
import { formatTokens } from '../../protocol/index.js';
import { compactionHistory } from '../context/index.js';
import type { SlashCommand } from './types.js';

export const statusCommand: SlashCommand = {
  name: 'status',
  aliases: [],
  args: '',
  description: 'Model, provider, tokens used of the window, cost, queue and last error.',
  async run({ sessionKey, host, providers, resolveModel, lastError }) {
    const session = await host.session(sessionKey);
    const model = await resolveModel(session);
    let window: number | undefined;
    let provider: string | undefined;
    if (model) {
      try {
        const resolved = providers.resolveModel(model);
        window = resolved.contextWindow;
        provider = resolved.provider;
      } catch {
        provider = undefined;
      }
    }
    const error = lastError(sessionKey);
    const compactions = compactionHistory((await host.turnSession(sessionKey)).entries());
    const lastCompaction = compactions.at(-1)?.at;
    const data = {
      sessionKey,
      sessionId: session.sessionId,
      model,
      provider,
      thinking: session.thinking,
      tokens: session.tokens,
      window,
      costUsd: session.costUsd,
      running: session.running,
      queued: session.queued,
      lastError: error,
      compactionCount: session.compactionCount,
      ...(lastCompaction !== undefined ? { lastCompactionAt: lastCompaction } : {}),
    };
    const used = window
      ? `${formatTokens(session.tokens.context)} / ${formatTokens(window)} (${Math.round((session.tokens.context / window) * 100)}%)`
      : formatTokens(session.tokens.context);
    const lines = [
      `gateway  v${CLAW_VERSION} on ${hostname()} · pid ${process.pid} · up ${Math.round(process.uptime())}s`,
      `session  ${sessionKey} (${session.sessionId})`,
      `model    ${model ?? 'none configured'}${provider ? ` via ${provider}` : ''}`,
      `context  ${used}`,
      `tokens   ${formatTokens(session.tokens.input)} in, ${formatTokens(session.tokens.output)} out`,
      `cost     $${session.costUsd.toFixed(4)}`,
      `compact  ${session.compactionCount === 0 ? 'never' : `${session.compactionCount}, last ${lastCompaction !== undefined ? new Date(lastCompaction).toISOString() : 'unknown'}`}`,
      `queue    ${session.running ? 'running' : 'idle'}, ${session.queued} queued`,
      `error    ${error ? `${error.message}${error.hint ? ` ${error.hint.split('\n')[0]}` : ''}` : 'none'}`,
    ];
    return { reply: lines.join('\n'), data };
  },
};

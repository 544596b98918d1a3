import { existsSync } from 'node:fs';
import { loadConfig, statePaths } from '../../config/index.js';
import { configuredAgentIds } from '../../memory/index.js';
import type { SpendStatus, UsageRecord } from '../../protocol/index.js';
import { dayOf, daysBefore, EMPTY_LEDGER, SpendLedger, spendStatus } from '../../providers/index.js';
import { clientName } from '../client-name.js';

/** Where `claw budget` and `claw usage` read spend: the running gateway, else the ledger file itself (read-only). */
export interface SpendSource {
  status(): Promise<SpendStatus>;
  usage(days: number): Promise<{ day: string; rows: UsageRecord[] }>;
  resume(sessionKey: string): Promise<boolean>;
  close(): void;
}

export async function openSpendSource(command: string): Promise<SpendSource> {
  const paths = statePaths();
  const { connectLocal, findLocalGateway } = await import('../../client/index.js');
  if (findLocalGateway(paths)) {
    const client = await connectLocal(paths, { clientName: clientName(command) });
    return {
      status: () => client.request('spend.status', {}),
      usage: (days) => client.request('spend.usage', { days }),
      resume: async (sessionKey) => (await client.request('spend.resume', { sessionKey })).resumed,
      close: () => client.close(),
    };
  }
  const config = loadConfig(paths.config);
  const day = dayOf(Date.now(), config.budgets.timezone);
  // No model call was ever made: nothing is spent, and a read-only open of a missing file would fail.
  const ledger = existsSync(paths.spendLedger) ? new SpendLedger(paths.spendLedger, { readonly: true }) : undefined;
  const view = ledger ?? EMPTY_LEDGER;
  return {
    status: async () => spendStatus(view, config.budgets, day, configuredAgentIds(config), ledger?.paused() ?? []),
    usage: async (days) => ({ day, rows: view.usage(daysBefore(day, days - 1)) }),
    // The pause is on disk: with no gateway running, lifting it is a write to the ledger.
    resume: async (sessionKey) => {
      if (!ledger) return false;
      const writable = new SpendLedger(paths.spendLedger);
      try {
        return writable.resume(sessionKey);
      } finally {
        writable.close();
      }
    },
    close: () => ledger?.close(),
  };
}

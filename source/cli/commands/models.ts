import type { GatewayClient } from '../../client/index.js';
import { formatTokens } from '../../protocol/index.js';
import { loadConfig, statePaths, type StatePaths } from '../../config/index.js';
import { createProviders, type ModelListing } from '../../providers/index.js';
import type { CommandRun } from '../command.js';
import { cooldownLines, printJson } from '../format.js';

const usage = 'Usage: claw models list [--json] | claw models reset-cooldown [PROVIDER|MODEL|KEY]';

function formatPrice(listing: ModelListing): string {
  return listing.cost.input === 0 && listing.cost.output === 0 ? '-' : `$${listing.cost.input}/$${listing.cost.output}`;
}

export function renderModelTable(listings: ModelListing[], defaultRef: string | undefined): string {
  const rows = listings.map((l) => [
    `${l.ref === defaultRef ? '*' : ' '} ${l.ref}`,
    formatTokens(l.contextWindow),
    formatTokens(l.maxOutput),
    formatPrice(l),
    l.ready ? 'yes' : 'no key',
  ]);
  const header = ['  MODEL', 'CONTEXT', 'MAX OUT', 'PRICE IN/OUT PER 1M', 'READY'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}

/** The live cooldowns, when a gateway runs (they are its memory, not the state dir's). */
async function withGateway<T>(paths: StatePaths, use: (client: GatewayClient) => Promise<T>): Promise<T | undefined> {
  const { connectLocal, findLocalGateway } = await import('../../client/index.js');
  if (!findLocalGateway(paths)) return undefined;
  const client = await connectLocal(paths);
  try {
    return await use(client);
  } finally {
    client.close();
  }
}

async function resetCooldown(paths: StatePaths, which: string | undefined, json: boolean): Promise<number> {
  const lifted = await withGateway(paths, async (client) => (await client.request('models.resetCooldown', which ? { which } : {})).lifted);
  if (lifted === undefined) {
    process.stderr.write('claw models reset-cooldown: no gateway is running, so nothing is cooling down (cooldowns live in the gateway).\n');
    return 1;
  }
  if (json) printJson({ lifted });
  else if (lifted.length === 0) process.stdout.write(`Nothing${which ? ` matching "${which}"` : ''} was cooling down.\n`);
  else process.stdout.write(`Lifted:\n${cooldownLines(lifted, Date.now(), '  ').join('\n')}\nThe next turn tries them again.\n`);
  return 0;
}

export const run: CommandRun = async ({ args, flags }) => {
  const [action = 'list', which] = args;
  const paths = statePaths();
  if (action === 'reset-cooldown') return resetCooldown(paths, which, Boolean(flags.json));
  if (action !== 'list') {
    process.stderr.write(`claw models: unknown action "${action}".\n${usage}\n`);
    return 2;
  }
  const config = loadConfig(paths.config);
  const providers = createProviders({ config, paths });
  const listings = await providers.listModels();
  const defaultRef = config.agents.defaults.model ?? (await providers.defaultModel());
  const cooldowns = (await withGateway(paths, async (client) => (await client.request('models.cooldowns', {})).cooldowns)) ?? [];
  if (flags.json) {
    printJson({ default: defaultRef ?? null, models: listings, cooldowns });
    return 0;
  }
  process.stdout.write(renderModelTable(listings, defaultRef));
  if (cooldowns.length > 0)
    process.stdout.write(`\nCooling down (\`claw models reset-cooldown\` lifts them):\n${cooldownLines(cooldowns, Date.now(), '  ').join('\n')}\n`);
  if (defaultRef)
    process.stdout.write(`\n* default model: ${defaultRef}${config.agents.defaults.model ? '' : ' (set agents.defaults.model to choose another)'}\n`);
  else process.stdout.write(`\n${providers.setupGuide()}\n`);
  return 0;
};

import { formatTokens } from '../../protocol/index.js';
import { loadConfig, statePaths } from '../../config/index.js';
import { createProviders, type ModelListing } from '../../providers/index.js';
import type { CommandRun } from '../command.js';
import { printJson } from '../format.js';

const usage = 'Usage: claw models list [--json]';

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

export const run: CommandRun = async ({ args, flags }) => {
  const [action = 'list'] = args;
  if (action !== 'list') {
    process.stderr.write(`claw models: unknown action "${action}".\n${usage}\n`);
    return 2;
  }
  const paths = statePaths();
  const config = loadConfig(paths.config);
  const providers = createProviders({ config, paths });
  const listings = await providers.listModels();
  const defaultRef = config.agents.defaults.model ?? (await providers.defaultModel());
  if (flags.json) {
    printJson({ default: defaultRef ?? null, models: listings });
    return 0;
  }
  process.stdout.write(renderModelTable(listings, defaultRef));
  if (defaultRef)
    process.stdout.write(`\n* default model: ${defaultRef}${config.agents.defaults.model ? '' : ' (set agents.defaults.model to choose another)'}\n`);
  else process.stdout.write(`\n${providers.setupGuide()}\n`);
  return 0;
};

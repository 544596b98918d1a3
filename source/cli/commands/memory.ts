import { loadConfig, statePaths, type StatePaths } from '../../config/index.js';
import { connectLocal, findLocalGateway } from '../../client/index.js';
import { MemoryIndex, type MemorySearchResult, type MemoryStatus, type SyncProgress, type SyncStats } from '../../memory/index.js';
import { ClawError } from '../../protocol/index.js';
import type { CommandRun } from '../command.js';
import { printJson } from '../format.js';

const usage =
  'Usage: claw memory status [--json] [--agent ID]\n       claw memory index [--force] [--agent ID]\n       claw memory search "query" [--json] [--agent ID] [--max N] [--min-score 0..1]';

function formatStatus(status: MemoryStatus): string {
  const lines = [
    `memory (${status.agentId}): ${status.mode === 'hybrid' ? 'hybrid (vector + keyword)' : 'KEYWORD-ONLY'}`,
    `  workspace   ${status.workspace}`,
    ...(status.extraPaths.length > 0 ? [`  extra       ${status.extraPaths.join(', ')}`] : []),
    `  index       ${status.indexPath}`,
    `  files       ${status.files}`,
    `  chunks      ${status.chunks} (${status.embeddedChunks} embedded)`,
    `  keyword     FTS5, ${status.keyword.tokenizer}`,
    `  vector      ${status.vector.available ? `sqlite-vec${status.vector.dims ? `, ${status.vector.dims} dims` : ''}` : 'UNAVAILABLE'}`,
    `  embeddings  ${status.embeddings.provider}${status.embeddings.model ? ` (${status.embeddings.model})` : ''}${status.embeddings.state === 'error' ? ' — FAILING' : ''}`,
    ...(status.lastSyncAt ? [`  last sync   ${new Date(status.lastSyncAt).toISOString()}`] : []),
  ];
  for (const note of status.notes) lines.push(`  ! ${note}`);
  return `${lines.join('\n')}\n`;
}

function formatResults(result: MemorySearchResult): string {
  const lines: string[] = [];
  for (const warning of result.warnings) lines.push(`! ${warning}`);
  if (result.hint) lines.push(result.hint);
  else if (result.results.length === 0) lines.push('No matches. Try other words, a lower --min-score, or `claw memory index` if files changed.');
  for (const hit of result.results) {
    lines.push(`${hit.path}:${hit.startLine}-${hit.endLine}  score ${hit.score.toFixed(3)}  [${result.mode}]`);
    for (const line of hit.snippet.split('\n').slice(0, 6)) lines.push(`    ${line}`);
  }
  return `${lines.join('\n')}\n`;
}

function formatStats(stats: SyncStats): string {
  return `indexed: ${stats.filesScanned} files (${stats.filesChanged} changed, ${stats.filesRemoved} removed), ${stats.chunksWritten} chunks written, ${stats.embedded} embedded, ${stats.cacheHits} from cache, ${stats.pendingEmbeddings} waiting, ${stats.durationMs} ms\n`;
}

function bar(done: number, total: number, width = 24): string {
  const filled = total > 0 ? Math.round((done / total) * width) : width;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

/** One redrawn line on a TTY: files, chunks and embeddings. */
function progressPrinter(): ((p: SyncProgress) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  let files = '';
  return (p) => {
    if (p.phase === 'files') files = `files ${p.filesDone}/${p.filesTotal} · chunks ${p.chunks}`;
    const line =
      p.phase === 'files'
        ? `${bar(p.filesDone, p.filesTotal)} ${files}`
        : `${bar(p.embeddingsDone, p.embeddingsTotal)} ${files} · embeddings ${p.embeddingsDone}/${p.embeddingsTotal}`;
    process.stderr.write(`\r\x1b[2K${line}`);
  };
}

function stringFlag(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function minScoreFlag(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const score = typeof value === 'number' || (typeof value === 'string' && value.trim() !== '') ? Number(value) : Number.NaN;
  if (!Number.isFinite(score) || score < 0 || score > 1) {
    throw new ClawError('bad_request', `--min-score takes a number from 0 to 1 (0.35 is the default; 0 shows every candidate), not "${String(value)}".`);
  }
  return score;
}

async function withLocalIndex<T>(paths: StatePaths, agentId: string, use: (index: MemoryIndex) => Promise<T>): Promise<T> {
  const config = loadConfig(paths.config);
  const index = new MemoryIndex({ config, paths, agentId });
  try {
    return await use(index);
  } finally {
    await index.close();
  }
}

export const run: CommandRun = async ({ args, flags }) => {
  const [action, ...rest] = args;
  const paths = statePaths();
  const agentId = stringFlag(flags.agent) ?? 'main';
  // With a daemon running, ask it: it owns the index and its watcher.
  const viaGateway = findLocalGateway(paths) !== undefined;
  switch (action) {
    case 'status': {
      let statuses: MemoryStatus[];
      if (viaGateway) {
        const client = await connectLocal(paths);
        try {
          statuses = (await client.request('memory.status', flags.agent ? { agentId } : {})).agents;
        } finally {
          client.close();
        }
      } else {
        statuses = [await withLocalIndex(paths, agentId, async (index) => index.status())];
      }
      if (flags.json) printJson(statuses.length === 1 ? statuses[0] : statuses);
      else process.stdout.write(statuses.map(formatStatus).join('\n'));
      return 0;
    }
    case 'index': {
      const force = flags.force === true;
      let stats: SyncStats;
      let status: MemoryStatus;
      if (viaGateway) {
        const client = await connectLocal(paths);
        try {
          ({ stats, status } = await client.request('memory.reindex', { agentId, force }, { timeoutMs: 3_600_000 }));
        } finally {
          client.close();
        }
      } else {
        const onProgress = progressPrinter();
        ({ stats, status } = await withLocalIndex(paths, agentId, async (index) => {
          const result = await index.sync({ force, retryEmbeddings: true, ...(onProgress ? { onProgress } : {}) });
          return { stats: result, status: index.status() };
        }));
        if (onProgress) process.stderr.write('\n');
      }
      if (flags.json) printJson({ stats, status });
      else {
        process.stdout.write(formatStats(stats));
        for (const note of status.notes) process.stdout.write(`! ${note}\n`);
      }
      return status.embeddings.state === 'error' || !status.vector.available ? 1 : 0;
    }
    case 'search': {
      const query = rest.join(' ').trim();
      if (!query) throw new ClawError('bad_request', `Give a query: claw memory search "what we decided about X".\n${usage}`);
      const max = Number(flags.max);
      const minScore = minScoreFlag(flags.minScore ?? flags['min-score']);
      // JSON is for looking closer: it says why each hit ranked.
      const params = {
        query,
        ...(Number.isInteger(max) && max > 0 ? { maxResults: max } : {}),
        ...(minScore !== undefined ? { minScore } : {}),
        ...(flags.json ? { explain: true } : {}),
      };
      let result: MemorySearchResult;
      if (viaGateway) {
        const client = await connectLocal(paths);
        try {
          result = await client.request('memory.search', { ...params, agentId });
        } finally {
          client.close();
        }
      } else {
        result = await withLocalIndex(paths, agentId, async (index) => index.search(params));
      }
      if (flags.json) printJson(result);
      else process.stdout.write(formatResults(result));
      return 0;
    }
    default:
      process.stderr.write(`${usage}\n`);
      return 2;
  }
};

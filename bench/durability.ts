// Crash-durability run: SIGKILLs a real gateway (dist/) many times during tool
// turns and collect batches, then checks the history (every acknowledged
// message has exactly one assistant outcome, none twice). Prints one JSON object.
// Run after `npm run build`: npx tsx bench/durability.ts   (BENCH_KILLS=200 by default)
import { runCrashHistory } from '../test/queue/crash-history.js';

const kills = Number(process.env.BENCH_KILLS ?? 200);
const report = await runCrashHistory({ kills });
console.log(
  JSON.stringify(
    {
      kills: report.kills,
      killsDuringTool: report.killsDuringTool,
      killsDuringBurst: report.killsDuringBurst,
      acknowledged: report.acknowledged,
      accepted: report.accepted,
      outcomes: report.outcomes,
      batchedReplies: report.batchedReplies,
      violations: report.violations.length,
      firstViolations: report.violations.slice(0, 20),
      durationMs: report.durationMs,
    },
    null,
    2,
  ),
);
process.exitCode = report.violations.length === 0 ? 0 : 1;

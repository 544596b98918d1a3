import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';
import { defineTool } from '../define-tool.js';
import { toolError, toolOk, type ToolDefinition } from '../types.js';
import { wrapUntrusted } from '../web/untrusted.js';
import { summarize, type JobManager } from './jobs.js';

const processInput = lazySchema(() =>
  z.strictObject({
    action: z.enum(['list', 'poll', 'log', 'write', 'kill']),
    id: z.string().optional().describe('Job id (all actions but list)'),
    data: z.string().optional().describe('Text written to the job stdin (write)'),
  }),
);

function describeJob(summary: ReturnType<typeof summarize>): string {
  const code = summary.status === 'exited' ? ` (exit ${summary.exitCode})` : '';
  return `${summary.id} ${summary.status}${code}: ${summary.command}`;
}

export function createProcessTool(jobs: JobManager): ToolDefinition<z.output<typeof processInput>> {
  return defineTool({
    name: 'process',
    group: 'runtime',
    risk: 'medium',
    description: 'Manage background exec jobs: list them, poll new output, read the whole log, write to stdin, or kill.',
    input: processInput,
    async execute(args, context) {
      if (args.action === 'list') {
        const list = jobs.list(context.agentId);
        return toolOk(list.length ? list.map(describeJob).join('\n') : 'No background jobs.', { jobs: list });
      }
      if (!args.id) return toolError(`process ${args.action} needs an id. Use action "list" to see job ids.`);
      const job = jobs.get(args.id, context.agentId);
      if (!job) return toolError(`No background job "${args.id}". Use action "list" to see job ids.`);
      const summary = summarize(job);
      switch (args.action) {
        case 'poll': {
          const output = job.unread;
          job.unread = '';
          return toolOk(`${describeJob(summary)}\n${wrapUntrusted(output || '(no new output)', { source: 'exec', job: job.id })}`, { ...summary });
        }
        case 'log':
          return toolOk(`${describeJob(summary)}\n${wrapUntrusted(job.run.output.text() || '(no output)', { source: 'exec', job: job.id })}`, { ...summary });
        case 'write':
          if (args.data === undefined) return toolError('process write needs data.');
          return job.run.write(args.data)
            ? toolOk(`Wrote ${args.data.length} characters to job ${job.id}.`)
            : toolError(`Job ${job.id} no longer reads input.`);
        case 'kill':
          if (summary.status !== 'running') return toolOk(`Job ${job.id} already ${summary.status}.`);
          job.run.kill('aborted');
          await job.run.result;
          return toolOk(`Killed job ${job.id}.`);
      }
    },
  });
}

import { randomUUID } from 'node:crypto';
import type { CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentRuntime } from '../agent/index.js';
import type { ProviderMessage, Providers } from '../providers/index.js';
import type { Clock, Logger } from '../config/index.js';
import type { ClientsPort } from '../core/index.js';

/** The most output one server request may spend, whatever maxTokens it asks for. */
export const SAMPLING_MAX_TOKENS = 4096;

type SamplingParams = CreateMessageRequest['params'];
type SamplingContent = SamplingParams['messages'][number]['content'];

function contentText(content: SamplingContent): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.map((block) => (block.type === 'text' ? block.text : `[${block.type} from the server, not passed to the model]`)).join('\n');
}

function providerMessages(params: SamplingParams): ProviderMessage[] {
  return params.messages.map((message): ProviderMessage => {
    const text = contentText(message.content);
    return message.role === 'user' ? { role: 'user', content: text } : { role: 'assistant', content: [{ type: 'text', text }] };
  });
}

export interface SamplerDeps {
  agent: Pick<AgentRuntime, 'resolveModel'>;
  providers: Pick<Providers, 'streamTurn'>;
  events: ClientsPort;
  log: Logger;
  agentId: string;
  clock: Pick<Clock, 'now'>;
}

/**
 * Answers `sampling/createMessage` for servers configured with
 * `sampling: true`: one call to the agent's model, without tools, capped at
 * SAMPLING_MAX_TOKENS, announced as `mcp.sampling` (start and end) so the
 * operator sees every completion a server spends.
 */
export function mcpSampler(deps: SamplerDeps) {
  return async (server: string, params: SamplingParams, signal: AbortSignal): Promise<CreateMessageResult> => {
    const model = await deps.agent.resolveModel({ agentId: deps.agentId });
    if (!model) throw new Error(`claw has no model configured for agent ${deps.agentId}, so it cannot answer the sampling request of "${server}".`);
    const maxTokens = Math.max(1, Math.min(params.maxTokens, SAMPLING_MAX_TOKENS));
    const id = randomUUID();
    const base = { id, server, model, maxTokens };
    deps.events.emit('mcp.sampling', { ...base, phase: 'start', at: deps.clock.now() });
    deps.log.info(`MCP server "${server}" asked ${model} for a completion (at most ${maxTokens} tokens)`);
    try {
      let text = '';
      for await (const event of deps.providers.streamTurn({
        model,
        system: params.systemPrompt ?? '',
        messages: providerMessages(params),
        tools: [],
        thinking: 'off',
        maxOutputTokens: maxTokens,
        // The agent pays for a server's completions, under the server's name.
        charge: { agentId: deps.agentId, sessionKey: `mcp:${server}`, kind: 'interactive' },
        signal,
      })) {
        if (event.type === 'text_delta') text += event.text;
        if (event.type !== 'done') continue;
        const outputTokens = event.usage?.output;
        deps.events.emit('mcp.sampling', {
          ...base,
          model: event.model,
          phase: 'end',
          ...(outputTokens !== undefined ? { outputTokens } : {}),
          at: deps.clock.now(),
        });
        return {
          role: 'assistant',
          content: { type: 'text', text },
          model: event.model,
          stopReason: event.stopReason === 'length' ? 'maxTokens' : 'endTurn',
        };
      }
      throw new Error('the model stream ended without a final message');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      deps.events.emit('mcp.sampling', { ...base, phase: 'error', error: message, at: deps.clock.now() });
      throw new Error(`claw could not sample ${model} for "${server}": ${message}`);
    }
  };
}

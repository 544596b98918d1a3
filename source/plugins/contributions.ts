import { randomUUID } from 'node:crypto';
import type { SlashCommand } from '../agent/index.js';
import type { LifecycleEvent } from '../core/index.js';
import { principalKind, type Usage } from '../protocol/index.js';
import {
  finalStopReason,
  MessageAssembler,
  ProviderError,
  providerErrorKinds,
  type ProviderErrorKind,
  type ProviderEvent,
  type WireRequest,
} from '../providers/index.js';
import { toolError, type JsonSchemaObject, type ToolDefinition, type ToolRisk } from '../tools/index.js';
import { toolName, type PluginManifest } from './manifest.js';
import { PluginCallError } from './plugin-process.js';
import type { InitializeResult, PluginPorts, RunningPlugin } from './running-plugin.js';

/** What a running plugin put into claw, and how to take it all back. */
export interface Registered {
  commands: SlashCommand[];
  dispose(): void;
}

type Effect = InitializeResult['tools'][number]['effect'];

const RISK: Record<Effect, ToolRisk> = { read: 'low', net: 'medium', write: 'medium', exec: 'high', message: 'high' };

function undeclared(kind: string, name: string, manifest: PluginManifest): Error {
  return new Error(`plugin ${manifest.id} registered ${kind} "${name}", which claw.plugin.json does not declare in contributes; it will not load.`);
}

function pluginTool(plugin: RunningPlugin, manifest: PluginManifest, tool: InitializeResult['tools'][number]): ToolDefinition {
  const name = toolName(manifest.id, tool.name);
  const parameters = (tool.inputSchema?.type === 'object' ? tool.inputSchema : { type: 'object', properties: {} }) as JsonSchemaObject;
  return {
    name,
    group: 'plugins',
    description: `${tool.description} (plugin ${manifest.id}${tool.effect === 'read' ? '' : `; ${tool.effect}`})`,
    risk: RISK[tool.effect],
    parameters,
    async execute(args, context) {
      const principal = context.principal ?? 'owner';
      // What changes or reaches anything beyond the plugin asks the owner when someone else asked for the turn.
      if (tool.effect !== 'read' && principalKind(principal) !== 'owner') {
        const binding = `${name} ${JSON.stringify(args)}`;
        if (!context.approvals.approvedForSession('plugin', binding)) {
          const outcome = await context.approvals.request(
            {
              kind: 'plugin',
              command: `plugin ${manifest.id}: ${tool.name} ${JSON.stringify(args)}`,
              binding,
              cwd: context.workspaceDir,
              envKeys: [],
              reason: `the ${manifest.id} plugin's ${tool.name} (${tool.effect}) was asked for by ${principal}`,
            },
            context.signal,
          );
          if (!outcome.approved) return toolError(`${name} was not approved (${outcome.status}); do not retry it for this request.`);
        }
      }
      const callId = randomUUID();
      const stop = plugin.listen(callId, (method, params) => {
        if (method === 'tool.progress') context.onUpdate(plugin.redact(String(params.text ?? '')));
      });
      const abort = () => plugin.cancel(callId);
      context.signal.addEventListener('abort', abort, { once: true });
      try {
        const result = (await plugin.call('tool.call', { callId, name: tool.name, args })) as { content?: unknown; isError?: unknown };
        return { content: plugin.redact(String(result?.content ?? '')), isError: result?.isError === true };
      } catch (error) {
        return toolError(`${name} failed: ${plugin.redact((error as Error).message)}`);
      } finally {
        stop();
        context.signal.removeEventListener('abort', abort);
      }
    },
  };
}

function pluginCommand(plugin: RunningPlugin, manifest: PluginManifest, command: InitializeResult['commands'][number]): SlashCommand {
  return {
    name: command.name,
    aliases: [],
    args: '',
    description: `${command.description || command.name} (plugin ${manifest.id})`,
    async run(context) {
      try {
        const result = (await plugin.call('command.run', { name: command.name, args: context.args, sessionKey: context.sessionKey })) as { reply?: unknown };
        return { reply: plugin.redact(String(result?.reply ?? '')) };
      } catch (error) {
        return { reply: `/${command.name} (plugin ${manifest.id}) failed: ${plugin.redact((error as Error).message)}` };
      }
    },
  };
}

/** Plugin deltas as provider events, the assistant message assembled as they come. */
async function* providerStream(plugin: RunningPlugin, providerId: string, request: WireRequest): AsyncIterable<ProviderEvent> {
  const callId = randomUUID();
  const queue: ProviderEvent[] = [];
  const assembled = new MessageAssembler();
  let usage: Usage | undefined;
  let wake: (() => void) | undefined;
  let finished: { error?: unknown } | undefined;
  const push = (event: ProviderEvent) => {
    queue.push(event);
    wake?.();
  };
  const stop = plugin.listen(callId, (method, params) => {
    if (method !== 'provider.delta') return;
    plugin.touch('provider.stream');
    const delta = (params.delta ?? {}) as {
      type?: string;
      text?: unknown;
      id?: unknown;
      name?: unknown;
      arguments?: unknown;
      input?: unknown;
      output?: unknown;
    };
    if (delta.type === 'text' && typeof delta.text === 'string') {
      assembled.appendText(delta.text);
      push({ type: 'text_delta', text: delta.text });
    } else if (delta.type === 'thinking' && typeof delta.text === 'string') {
      assembled.appendThinking(delta.text);
      push({ type: 'thinking_delta', text: delta.text });
    } else if (delta.type === 'tool_call' && typeof delta.name === 'string') {
      const args = delta.arguments && typeof delta.arguments === 'object' ? (delta.arguments as Record<string, unknown>) : {};
      const id = typeof delta.id === 'string' ? delta.id : `call_${randomUUID()}`;
      assembled.addToolCall(id, delta.name, args);
      push({ type: 'tool_call', id, name: delta.name, arguments: args });
    } else if (delta.type === 'usage') {
      usage = { input: Math.max(0, Math.round(Number(delta.input) || 0)), output: Math.max(0, Math.round(Number(delta.output) || 0)) };
      push({ type: 'usage', usage });
    }
  });
  const abort = () => plugin.cancel(callId);
  request.signal?.addEventListener('abort', abort, { once: true });
  const call = {
    model: request.model.id,
    system: request.system,
    messages: request.messages,
    tools: request.tools,
    thinking: request.thinking,
    maxOutputTokens: request.maxOutputTokens,
  };
  plugin.call('provider.stream', { callId, provider: providerId, request: call }).then(
    () => {
      finished = {};
      wake?.();
    },
    (error: unknown) => {
      finished = { error };
      wake?.();
    },
  );
  try {
    for (;;) {
      const next = queue.shift();
      if (next) {
        yield next;
        continue;
      }
      if (finished) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
    if (finished.error !== undefined) throw asProviderError(finished.error, plugin.redact.bind(plugin), request.signal?.aborted === true);
    yield { type: 'done', stopReason: finalStopReason(undefined, assembled), content: assembled.content(), usage, model: request.model.ref, profile: 'none' };
  } finally {
    stop();
    request.signal?.removeEventListener('abort', abort);
  }
}

function asProviderError(error: unknown, redact: (text: string) => string, aborted: boolean): ProviderError {
  const message = redact(error instanceof Error ? error.message : String(error));
  if (aborted) return new ProviderError('aborted', 'The call was cancelled.');
  const given = error instanceof PluginCallError ? error.kind : undefined;
  const kind: ProviderErrorKind = given && (providerErrorKinds as readonly string[]).includes(given) ? (given as ProviderErrorKind) : 'server';
  return new ProviderError(kind, message);
}

/**
 * Registers a started plugin's tools, hooks and providers through the ports
 * (its commands are served by the plugins service's command source), each
 * checked against what the manifest declares: one undeclared name and
 * nothing of the plugin loads.
 */
export function registerContributions(plugin: RunningPlugin, manifest: PluginManifest, result: InitializeResult, ports: PluginPorts): Registered {
  const declared = manifest.contributes;
  for (const tool of result.tools) if (!declared.tools.includes(tool.name)) throw undeclared('tool', tool.name, manifest);
  for (const command of result.commands) if (!declared.commands.includes(command.name)) throw undeclared('command', command.name, manifest);
  for (const event of result.hooks) if (!(declared.hooks as readonly string[]).includes(event)) throw undeclared('hook', event, manifest);
  for (const provider of result.providers) if (!declared.providers.includes(provider.id)) throw undeclared('provider', provider.id, manifest);
  const undo: Array<() => void> = [];
  const dispose = () => {
    for (const step of undo.splice(0).reverse()) step();
  };
  try {
    for (const tool of result.tools) {
      const definition = pluginTool(plugin, manifest, tool);
      ports.tools.register(definition);
      undo.push(() => ports.tools.unregister(definition.name));
    }
    for (const event of result.hooks as LifecycleEvent[]) {
      undo.push(
        ports.lifecycle.on(event, async (payload) => {
          try {
            const verdict = (await plugin.call('hook.run', { event, payload })) as { block?: boolean; reason?: string; bootstrap?: string } | null;
            if (!verdict) return undefined;
            return { ...verdict, ...(verdict.reason ? { reason: plugin.redact(verdict.reason) } : {}), source: `plugin ${manifest.id}` };
          } catch (error) {
            plugin.log('error', `${event} hook failed: ${(error as Error).message}`);
            return undefined;
          }
        }),
      );
    }
    for (const provider of result.providers) {
      const models = provider.models.map((model) => (typeof model === 'string' ? { id: model } : model));
      undo.push(
        ports.models.plug({ name: provider.id, source: `plugin ${manifest.id}`, models, stream: (request) => providerStream(plugin, provider.id, request) }),
      );
    }
  } catch (error) {
    dispose();
    throw error;
  }
  return { commands: result.commands.map((command) => pluginCommand(plugin, manifest, command)), dispose };
}

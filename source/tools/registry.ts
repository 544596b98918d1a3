import { z } from 'zod';
import { decideTools, type PolicyDecision, type PolicyLayer } from './policy.js';
import type { SecretRedactor } from './redact.js';
import { wireSafeKeys, withoutFormats } from './schema-keys.js';
import { toolError, type ToolContext, type ToolDefinition, type ToolResult } from './types.js';

type Validator = (args: unknown) => { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

interface Entry {
  tool: ToolDefinition;
  /** As the model sees it (property keys the model APIs accept) and how its calls' arguments go back; built on first use. */
  wire?: { tool: ToolDefinition; restore: (args: unknown) => unknown };
  validate: Validator;
}

/** Built-in tools derive `parameters` from zod on first read: nothing here reads it before the tool is used. */
function wireOf(entry: Entry): NonNullable<Entry['wire']> {
  if (!entry.wire) {
    const { parameters, restore } = wireSafeKeys(entry.tool.parameters);
    entry.wire = { tool: parameters === entry.tool.parameters ? entry.tool : { ...entry.tool, parameters }, restore };
  }
  return entry.wire;
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : '(arguments)'}: ${issue.message}`).join('; ');
}

function compileValidator(tool: ToolDefinition): Validator {
  const schema: z.ZodType = tool.input ?? z.fromJSONSchema(withoutFormats(tool.parameters) as Parameters<typeof z.fromJSONSchema>[0]);
  return (args) => {
    const parsed = schema.safeParse(args ?? {});
    if (parsed.success) return { ok: true, value: parsed.data as Record<string, unknown> };
    return { ok: false, message: describeIssues(parsed.error) };
  };
}

/**
 * Every tool the gateway knows. The agent loop calls `effective` to decide
 * what a turn sees and `invoke` to run a call: invoke never throws, so bad
 * arguments or a crashing tool become an error result the model can read.
 * With a redactor, the exact values of known secrets are replaced in every
 * result (built-in, MCP, errors alike) before it goes back to the model.
 */
export class ToolRegistry {
  readonly #entries = new Map<string, Entry>();
  readonly #redactor: SecretRedactor | undefined;

  constructor(options: { redactor?: SecretRedactor } = {}) {
    this.#redactor = options.redactor;
  }

  register(tool: ToolDefinition): void {
    if (this.#entries.has(tool.name)) throw new Error(`Tool "${tool.name}" is already registered.`);
    this.#entries.set(tool.name, { tool, validate: compileValidator(tool) });
  }

  /** Removes a tool (e.g. an MCP server went away); returns whether it existed. */
  unregister(name: string): boolean {
    return this.#entries.delete(name);
  }

  get(name: string): ToolDefinition | undefined {
    const entry = this.#entries.get(name);
    return entry && wireOf(entry).tool;
  }

  list(): ToolDefinition[] {
    return [...this.#entries.values()].map((entry) => wireOf(entry).tool).sort((a, b) => a.name.localeCompare(b.name));
  }

  decisions(layers: readonly PolicyLayer[]): PolicyDecision[] {
    return decideTools(this.list(), layers);
  }

  effective(layers: readonly PolicyLayer[]): ToolDefinition[] {
    const allowed = new Set(
      this.decisions(layers)
        .filter((d) => d.allowed)
        .map((d) => d.name),
    );
    return this.list().filter((tool) => allowed.has(tool.name));
  }

  async invoke(name: string, args: unknown, context: ToolContext): Promise<ToolResult> {
    const redactor = this.#redactor;
    if (!redactor) return this.#invoke(name, args, context);
    // Streamed output goes to clients, not the model, but a transcript viewer should not show secrets either.
    const result = await this.#invoke(name, args, { ...context, onUpdate: (text) => context.onUpdate(redactor.redact(text)) });
    return { ...result, content: redactor.redact(result.content) };
  }

  async #invoke(name: string, args: unknown, context: ToolContext): Promise<ToolResult> {
    const entry = this.#entries.get(name);
    if (!entry) return toolError(`Unknown tool "${name}". Use one of the tools listed in your instructions.`);
    const checked = entry.validate(wireOf(entry).restore(args));
    if (!checked.ok) return toolError(`Invalid arguments for ${name}: ${checked.message}. Fix the arguments and call ${name} again.`);
    try {
      return await entry.tool.execute(checked.value, context);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return toolError(`${name} failed: ${message}`);
    }
  }
}

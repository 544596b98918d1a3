import { z } from 'zod';
import type { JsonSchemaObject, ToolContext, ToolDefinition, ToolGroup, ToolResult, ToolRisk } from './types.js';

interface ToolSpec<S extends z.ZodType> {
  name: string;
  group: ToolGroup;
  description: string;
  risk: ToolRisk;
  input: S;
  execute(args: z.output<S>, context: ToolContext): Promise<ToolResult>;
}

/**
 * The JSON Schema the model sees for a zod schema, derived on first call: the
 * daemon declares every tool at start, and most are never listed before a turn.
 */
export function toolParameters(schema: z.ZodType): () => JsonSchemaObject {
  let parameters: JsonSchemaObject | undefined;
  return () => {
    if (!parameters) {
      parameters = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchemaObject;
      delete parameters.$schema;
    }
    return parameters;
  };
}

/** Declares a tool from a zod schema: the JSON Schema for the model is derived, never written twice. */
export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): ToolDefinition<z.output<S>> {
  const parameters = toolParameters(spec.input);
  return {
    ...spec,
    input: spec.input as z.ZodType<z.output<S>>,
    get parameters(): JsonSchemaObject {
      return parameters();
    },
  };
}

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
 * Declares a tool from a zod schema: the JSON Schema for the model is derived,
 * never written twice, on first read (the daemon declares every tool at start).
 */
export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): ToolDefinition<z.output<S>> {
  let parameters: JsonSchemaObject | undefined;
  return {
    ...spec,
    input: spec.input as z.ZodType<z.output<S>>,
    get parameters(): JsonSchemaObject {
      if (!parameters) {
        parameters = z.toJSONSchema(spec.input, { io: 'input', unrepresentable: 'any' }) as JsonSchemaObject;
        delete parameters.$schema;
      }
      return parameters;
    },
  };
}

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { events, methods } from '../../source/protocol/index.js';
import { protocolJsonSchema } from '../../source/protocol/json-schema.js';
import { protocolListing, readmeWithListing, SCHEMA_FILE, schemaText, TUI_README } from '../../scripts/protocol-schema.js';

describe('the checked-in protocol schema', () => {
  it('is what the code declares; after a deliberate change run `npm run protocol:schema`', () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8') === schemaText(), 'source/protocol/protocol.schema.json is out of date: run `npm run protocol:schema`').toBe(true);
  });

  it("is what the TUI README's generated lists say", () => {
    const readme = readFileSync(TUI_README, 'utf8');
    expect(readmeWithListing(readme) === readme, 'the protocol lists in source/tui/README.md are out of date: run `npm run protocol:schema`').toBe(true);
    expect(readme).toContain(protocolListing());
  });

  it('covers every method and event with its scope, and expands shared schemas instead of leaving them empty', () => {
    const schema = protocolJsonSchema() as {
      methods: Record<string, { scope: string; params: unknown; result: { type?: string } }>;
      events: Record<string, { scope: string; payload: unknown }>;
      snapshot: { properties: Record<string, unknown> };
    };
    expect(Object.keys(schema.methods).sort()).toEqual(Object.keys(methods).sort());
    expect(Object.keys(schema.events).sort()).toEqual(Object.keys(events).sort());
    expect(schema.methods['chat.send']?.scope).toBe('write');
    // agentInfo is a lazily built schema shared by several methods: it must appear in full.
    expect(JSON.stringify(schema.methods['agents.list']?.result)).toContain('"workspace":{"type":"string"}');
    expect(Object.keys(schema.snapshot.properties)).toEqual(expect.arrayContaining(['sessions', 'lanes', 'approvals']));
  });

  it('fails when a declared method changes and the file does not', () => {
    const before = schemaText();
    const spec = methods['agents.list'] as { description: string };
    const description = spec.description;
    Object.defineProperty(spec, 'description', { value: `${description} (changed)`, configurable: true, writable: true });
    try {
      expect(schemaText()).not.toBe(before);
    } finally {
      Object.defineProperty(spec, 'description', { value: description, configurable: true, writable: true });
    }
  });
});

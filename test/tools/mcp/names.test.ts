import { describe, expect, it } from 'vitest';
import { MAX_TOOL_NAME_LENGTH, mcpToolName, sanitizeNamePart } from '../../../source/tools/mcp/index.js';

describe('MCP tool names', () => {
  it('prefixes server and tool and replaces characters outside [A-Za-z0-9_-]', () => {
    expect(mcpToolName('github', 'create_issue')).toBe('mcp__github__create_issue');
    expect(mcpToolName('my server', 'get.weather/now')).toBe('mcp__my_server__get_weather_now');
    expect(mcpToolName('ünï', 'tööl-1')).toBe('mcp___n___t__l-1');
    expect(sanitizeNamePart('')).toBe('_');
  });

  it('caps the length and keeps long names distinct and stable', () => {
    const long = 'x'.repeat(100);
    const a = mcpToolName('server', `${long}a`);
    const b = mcpToolName('server', `${long}b`);
    expect(a.length).toBe(MAX_TOOL_NAME_LENGTH);
    expect(b.length).toBe(MAX_TOOL_NAME_LENGTH);
    expect(a).not.toBe(b);
    expect(mcpToolName('server', `${long}a`)).toBe(a);
    expect(a).toMatch(/^mcp__server__x+_[0-9a-f]{8}$/);
  });

  it('gives a hashed name when the sanitised one is taken', () => {
    const taken = new Set(['mcp__s__a_b']);
    const name = mcpToolName('s', 'a.b', (candidate) => taken.has(candidate));
    expect(name).toMatch(/^mcp__s__a_b_[0-9a-f]{8}$/);
    expect(name).toMatch(/^[A-Za-z0-9_-]+$/);
  });
});

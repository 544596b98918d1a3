import { describe, expect, it } from 'vitest';
import { configSchema, resolveGatewayPort } from '../../source/config/index.js';

const config = configSchema.parse({ gateway: { port: 19999 } });

describe('gateway port precedence', () => {
  it('prefers --port, then CLAW_GATEWAY_PORT, then the config', () => {
    expect(resolveGatewayPort(config, 1234, { CLAW_GATEWAY_PORT: '4321' })).toBe(1234);
    expect(resolveGatewayPort(config, undefined, { CLAW_GATEWAY_PORT: '4321' })).toBe(4321);
    expect(resolveGatewayPort(config, undefined, {})).toBe(19999);
  });

  it('accepts 0 for an ephemeral port and refuses nonsense naming its source', () => {
    expect(resolveGatewayPort(config, 0, {})).toBe(0);
    expect(() => resolveGatewayPort(config, undefined, { CLAW_GATEWAY_PORT: 'abc' })).toThrow(/CLAW_GATEWAY_PORT.*0 to 65535/);
    expect(() => resolveGatewayPort(config, 70000, {})).toThrow(/--port/);
  });
});

import { describe, expect, it } from 'vitest';
import { parseArgvFast } from '../../source/cli/argv.js';

describe('parseArgvFast', () => {
  it('parses words and the known flags in both spellings', () => {
    expect(parseArgvFast([])).toEqual({ command: '', input: { args: [], flags: { json: false }, argv: [] } });
    expect(parseArgvFast(['gateway', 'start', '--port', '0', '--json'])).toEqual({
      command: 'gateway',
      input: { args: ['start'], flags: { json: true, port: 0 }, argv: ['gateway', 'start', '--port', '0', '--json'] },
    });
    expect(parseArgvFast(['gateway', 'run', '--port=19000', '--bind=0.0.0.0'])?.input.flags).toEqual({ json: false, port: 19000, bind: '0.0.0.0' });
    expect(parseArgvFast(['config', 'set', 'gateway.port', '19000'])?.input.args).toEqual(['set', 'gateway.port', '19000']);
  });

  it('hands everything else to meow', () => {
    for (const argv of [
      ['--help'],
      ['--version'],
      ['-h'],
      ['status', '--verbose'],
      ['gateway', 'start', '--port'],
      ['gateway', 'start', '--port', 'abc'],
      ['--port', '--json'],
      ['x', '--', 'y'],
      ['--json=1'],
    ]) {
      expect(parseArgvFast(argv), argv.join(' ')).toBeUndefined();
    }
  });
});

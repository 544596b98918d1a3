import { describe, expect, it } from 'vitest';
import { extractIdentifiers, identifierAppendix, missingIdentifiers } from '../../source/agent/compaction/index.js';

const values = (text: string): string[] => extractIdentifiers(text).map((identifier) => identifier.value);

describe('extractIdentifiers', () => {
  it('finds every kind of identifier once, in order of appearance', () => {
    const text = [
      'Deploy 3f2a9c1 of https://github.com/acme/api/pull/42, then check https://status.acme.io/x?y=1.',
      'Session 123e4567-e89b-12d3-a456-426614174000 failed on db1.prod.internal:5432 and 10.0.0.12:8080.',
      'Logs are in /var/log/claw/gateway.log and ~/notes/todo.md; config in src/config/schema.ts.',
      'Ticket OPS-1234 and issue #512 track it. The API listens on port 9000, locally localhost:3000.',
      'Hash sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 matches.',
    ].join('\n');
    expect(values(text)).toEqual([
      '3f2a9c1',
      'https://github.com/acme/api/pull/42',
      'https://status.acme.io/x?y=1',
      '123e4567-e89b-12d3-a456-426614174000',
      'db1.prod.internal:5432',
      '10.0.0.12:8080',
      '/var/log/claw/gateway.log',
      '~/notes/todo.md',
      'src/config/schema.ts',
      'OPS-1234',
      '#512',
      '9000',
      'localhost:3000',
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    ]);
  });

  it('does not take plain words, file names or code member chains for identifiers', () => {
    expect(values('We use node.js and index.ts; call this.deps.config or process.env.HOME, e.g. later. Version 1.2.3 is fine.')).toEqual([]);
    expect(values('The decision was deferred until Friday because of budget.')).toEqual([]);
  });

  it('reports the identifiers a summary lost, and appends them as a list', () => {
    const identifiers = extractIdentifiers('See /etc/hosts and https://example.com/a and OPS-7.');
    const missing = missingIdentifiers('Checked /etc/hosts.', identifiers);
    expect(missing.map((identifier) => identifier.value)).toEqual(['https://example.com/a', 'OPS-7']);
    const appendix = identifierAppendix(missing);
    expect(missingIdentifiers(`Checked /etc/hosts.${appendix}`, identifiers)).toEqual([]);
  });
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores here and in CI: more workers only add contention for the
    // tests that spawn real gateways and child processes.
    maxWorkers: 2,
    // Every emitted event is checked against its protocol schema in tests.
    env: { CLAW_VALIDATE_EVENTS: '1' },
  },
});

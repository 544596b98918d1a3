import { describe, expect, it } from 'vitest';
import { decideTools, policyLayers, type PolicyTool } from '../../source/tools/index.js';

const tools: PolicyTool[] = [
  { name: 'read', group: 'fs' },
  { name: 'exec', group: 'runtime' },
  { name: 'message', group: 'messaging' },
  { name: 'session_status', group: 'sessions' },
  { name: 'cron', group: 'automation' },
];
const allowed = (layers: Parameters<typeof decideTools>[1]) =>
  decideTools(tools, layers)
    .filter((d) => d.allowed)
    .map((d) => d.name);

describe('tool policy pipeline', () => {
  it('profiles choose the base set; coding is the default', () => {
    expect(allowed([])).toEqual(['read', 'exec', 'message', 'session_status']);
    expect(allowed([{ profile: 'minimal' }])).toEqual(['session_status']);
    expect(allowed([{ profile: 'messaging' }])).toEqual(['message', 'session_status']);
    expect(allowed([{ profile: 'full' }])).toHaveLength(5);
  });

  it('allow adds, deny at any level wins over allow at any level', () => {
    expect(allowed([{ allow: ['cron'] }])).toContain('cron');
    expect(allowed([{ allow: ['group:automation'] }, {}, {}, { deny: ['group:*'] }])).toEqual([]);
    expect(allowed([{ deny: ['exec'] }, { allow: ['exec'] }])).not.toContain('exec');
  });

  it('reads the four levels from config and explains decisions', () => {
    const layers = policyLayers(
      {
        profile: 'coding',
        allow: [],
        deny: [],
        agents: { ops: { profile: 'full' } },
        sessionTypes: { group: { deny: ['group:runtime'] } },
        subagentRoles: { leaf: { deny: ['message'] } },
      },
      { agentId: 'ops', sessionType: 'group', subagentRole: 'leaf' },
    );
    const decisions = decideTools(tools, layers);
    expect(decisions.find((d) => d.name === 'exec')).toMatchObject({ allowed: false, reason: 'denied by "group:runtime" (session type)' });
    expect(decisions.find((d) => d.name === 'message')?.reason).toContain('subagent role');
    expect(decisions.find((d) => d.name === 'cron')).toMatchObject({ allowed: true, reason: 'profile full' });
  });
});

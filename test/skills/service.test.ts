import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { skillEnvSecrets } from '../../source/config/index.js';
import { makeSkillsEnv, simpleSkill, writeSkill, type SkillsEnv } from './skill-fixtures.js';

let env: SkillsEnv | undefined;
afterEach(() => {
  env?.cleanup();
  env = undefined;
});

describe('what the daemon takes from the skills service', () => {
  it("exec env and read roots come only from the agent's ready skills", () => {
    env = makeSkillsEnv({
      agents: { list: [{ id: 'ops', skills: ['deploy'] }] },
      skills: {
        entries: { deploy: { env: { DEPLOY_TOKEN: 'tok-1' } }, report: { env: { REPORT_KEY: 'key-2' } }, off: { enabled: false, env: { OFF_KEY: 'key-3' } } },
      },
    });
    const root = env.state.paths.skills;
    const deploy = simpleSkill(root, 'deploy');
    const report = simpleSkill(root, 'report');
    simpleSkill(root, 'off');
    writeSkill(root, 'broken', 'name: broken');
    const service = env.service();
    expect(service.execEnv('main')).toEqual({ DEPLOY_TOKEN: 'tok-1', REPORT_KEY: 'key-2' });
    expect(service.execEnv('ops')).toEqual({ DEPLOY_TOKEN: 'tok-1' });
    expect(service.readRoots('main')).toEqual([deploy, report]);
    expect(service.readRoots('ops')).toEqual([deploy]);
    expect(skillEnvSecrets(env.config.skills).sort()).toEqual(['key-2', 'key-3', 'tok-1']);
    // The values never reach the prompt block, the /skills data or the doctor line.
    const snapshot = JSON.stringify(service.agent('main').prompt);
    for (const secret of ['tok-1', 'key-2', 'key-3']) expect(snapshot).not.toContain(secret);
  });

  it("roots follow the agent's workspace", () => {
    const workspace = join(tmpdir(), `claw-ops-${process.pid}`);
    env = makeSkillsEnv({ agents: { list: [{ id: 'ops', workspace }] } });
    const roots = env.service().roots('ops');
    expect(roots.slice(0, 2)).toEqual([
      { source: 'workspace', dir: join(workspace, 'skills') },
      { source: 'workspace-agents', dir: join(workspace, '.agents', 'skills') },
    ]);
    expect(roots.map((root) => root.source)).toEqual(['workspace', 'workspace-agents', 'managed', 'personal-agents', 'bundled']);
  });
});

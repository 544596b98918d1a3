import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, writeRawConfig, type ClawConfig } from '../../source/config/index.js';
import { SkillsService, type SkillsServiceOptions } from '../../source/skills/index.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

/** Writes `<root>/<folder>/SKILL.md` with the given frontmatter lines (or raw text) and body; returns the folder. */
export function writeSkill(root: string, folder: string, frontmatter: string | Record<string, string>, body = `# ${folder}\nSteps for ${folder}.\n`): string {
  const dir = join(root, folder);
  mkdirSync(dir, { recursive: true });
  const yaml =
    typeof frontmatter === 'string'
      ? frontmatter
      : Object.entries(frontmatter)
          .map(([key, value]) => `${key}: ${value}`)
          .join('\n');
  writeFileSync(join(dir, 'SKILL.md'), `---\n${yaml}\n---\n${body}`);
  return dir;
}

export function simpleSkill(root: string, name: string, description = `Does ${name} things. Use when the user asks for ${name}.`, folder = name): string {
  return writeSkill(root, folder, { name, description: JSON.stringify(description) });
}

export interface SkillsEnv {
  state: TempState;
  home: string;
  bundled: string;
  workspace: string;
  config: ClawConfig;
  service(options?: Partial<SkillsServiceOptions>): SkillsService;
  cleanup(): void;
}

/** A temp state dir, a temp home and an empty bundled folder: no skill from this machine leaks in. */
export function makeSkillsEnv(rawConfig: Record<string, unknown> = {}): SkillsEnv {
  const state = makeTempState('claw-skills-');
  const home = mkdtempSync(join(tmpdir(), 'claw-home-'));
  const bundled = join(state.dir, 'bundled-skills');
  mkdirSync(bundled);
  writeRawConfig(state.paths.config, rawConfig);
  const config = loadConfig(state.paths.config);
  const workspace = state.paths.workspace('main');
  const services: SkillsService[] = [];
  return {
    state,
    home,
    bundled,
    workspace,
    config,
    service(options = {}) {
      const service = new SkillsService({
        config,
        paths: state.paths,
        workspaceDir: (agentId) => config.agents.list.find((agent) => agent.id === agentId)?.workspace ?? state.paths.workspace(agentId),
        home,
        bundledDir: bundled,
        env: { PATH: process.env.PATH ?? '' },
        ...options,
      });
      services.push(service);
      return service;
    },
    cleanup() {
      for (const service of services) void service.stop();
      state.cleanup();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

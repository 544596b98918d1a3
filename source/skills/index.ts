export { SkillsService, type SkillsChange, type SkillsServiceOptions } from './skills-service.js';
export { buildAgentSkills, describeChanges, type AgentSkills } from './agent-skills.js';
export { buildCatalogue, describeStatus, isReady, type ReadySkill, type SkillRecord, type SkillStatus } from './catalogue.js';
export {
  discoverSkillsSync,
  findSkillDirsSync,
  readSkillSync,
  skillSources,
  MAX_SKILL_DEPTH,
  type FoundSkill,
  type SkillRoot,
  type SkillSource,
} from './discovery.js';
export { parseFrontmatter, FrontmatterError, type Frontmatter } from './frontmatter.js';
export { readManifest, SKILL_NAME, MAX_DESCRIPTION_CHARS, type SkillManifest, type SkillRequires } from './manifest.js';
export { buildPromptBlock, type BlockSkill, type PromptBlock } from './prompt-block.js';
export { skillRoots, bundledSkillsDir, agentWorkspaceDir } from './roots.js';
export { skillCommands, skillInvocationMessage, type SkillCommand, type SkillCommandList } from './skill-commands.js';
export { createSkillTool } from './skill-tool.js';
export { createSkillsSlashCommand, skillSlashCommand } from './skills-command.js';
export { formatSkillsTable, skillRows, type SkillRow } from './skills-list.js';
export { inspectSkillSource, formatInstallPlan, installSkillSync, InstallError, type InstallPlan } from './install.js';
export { skillsDoctorCheck, type SkillsDoctorCheck } from './doctor-check.js';

/**
 * What the agent needs from the skills subsystem, which sits above agent/:
 * the daemon passes an implementation to AgentRuntime. A snapshot is
 * immutable, so a turn keeps the one it started with while skills change.
 */
export interface SkillsPromptSnapshot {
  /** The `<available_skills>` block; empty when no skill is offered. */
  block: string;
  form: 'full' | 'compact' | 'none';
  /** Skills named in the block. */
  listed: readonly string[];
  /** Ready skills left out of the block because it hit its character budget. */
  omitted: readonly string[];
  /** Skills found but not offered to the model, with the reason (broken, needs, shadowed, disabled, user-only). */
  notOffered: readonly { name: string; reason: string }[];
}

export interface SkillsSource {
  snapshot(agentId: string): SkillsPromptSnapshot;
}

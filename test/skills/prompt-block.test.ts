import { describe, expect, it } from 'vitest';
import { buildPromptBlock, type BlockSkill } from '../../source/skills/index.js';

const skills = (count: number, description = 'Does things. Use when asked.'): BlockSkill[] =>
  Array.from({ length: count }, (_, i) => ({ name: `skill-${i}`, description, location: `/skills/skill-${i}/SKILL.md` }));

describe('the <available_skills> block', () => {
  it('is empty when no skill is offered', () => {
    expect(buildPromptBlock([], 30_000)).toEqual({ block: '', form: 'none', listed: [], omitted: [] });
  });

  it('carries name, description and location per skill, escaped', () => {
    const { block, form } = buildPromptBlock([{ name: 'xml', description: 'Handles <tags> & "quotes".', location: '/s/xml/SKILL.md' }], 30_000);
    expect(form).toBe('full');
    expect(block).toBe(
      '<available_skills>\n<skill>\n<name>xml</name>\n<description>Handles &lt;tags&gt; &amp; "quotes".</description>\n<location>/s/xml/SKILL.md</location>\n</skill>\n</available_skills>',
    );
  });

  it('switches to name + location when the full form is over the budget', () => {
    const list = skills(20, 'A description that is long enough to matter. '.repeat(4));
    const full = buildPromptBlock(list, 1_000_000);
    const compact = buildPromptBlock(list, full.block.length - 1);
    expect(compact.form).toBe('compact');
    expect(compact.block).not.toContain('<description>');
    expect(compact.block.length).toBeLessThan(full.block.length);
    expect(compact.listed).toHaveLength(20);
    expect(compact.omitted).toEqual([]);
  });

  it('names exactly the skills left out when even the compact form does not fit, and stays within the budget', () => {
    const list = skills(50);
    for (const budget of [300, 1_000, 2_000]) {
      const result = buildPromptBlock(list, budget);
      expect(result.block.length).toBeLessThanOrEqual(budget);
      expect(result.omitted.length).toBeGreaterThan(0);
      expect([...result.listed, ...result.omitted]).toEqual(list.map((skill) => skill.name));
      expect(result.block).toContain(`${result.omitted.length} more skills are not listed`);
      for (const name of result.omitted) expect(result.block).not.toContain(`<name>${name}</name>`);
    }
  });
});

import { utimesSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryFixture, type MemoryFixture } from './memory-fixture.js';

let fx: MemoryFixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

async function indexWith(files: Record<string, string>, memory: Record<string, unknown> = {}) {
  fx = memoryFixture(memory);
  for (const [path, text] of Object.entries(files)) fx.write(path, text);
  const index = fx.open();
  await index.sync();
  return index;
}

const paths = (result: { results: { path: string }[] }) => result.results.map((hit) => hit.path);

describe('Chinese questions', () => {
  const notes = {
    'memory/2026-05-16.md': '# 周六\n\n周六和小李在湖边的茶馆喝茶，聊了他换工作的事。\n',
    'memory/2026-05-20.md': '# 周三\n\n下午修好了家里的路由器，换成了新的固件。\n',
    'memory/cooking.md': '# Cooking\n\nThe sourdough starter is fed with rye flour.\n',
  };

  it('finds a note that shares words with a question, not only the whole question verbatim', async () => {
    const index = await indexWith(notes);
    const result = await index.search({ query: '周末和小李去哪里喝茶了？' });
    expect(paths(result)[0]).toBe('memory/2026-05-16.md');
    expect(paths(result)).not.toContain('memory/cooking.md');
  });

  it('finds a single Chinese character', async () => {
    const index = await indexWith(notes);
    expect(paths(await index.search({ query: '茶' }))).toContain('memory/2026-05-16.md');
  });

  it('keeps the English word of a mixed-script question', async () => {
    const index = await indexWith({
      'memory/food.md': '# Food\n\nThe restaurant by the river is Trattoria Sole; book a table for Friday.\n',
      'memory/2026-05-20.md': notes['memory/2026-05-20.md'],
    });
    expect(paths(await index.search({ query: 'restaurant？她' }))).toContain('memory/food.md');
    expect(paths(await index.search({ query: '那个restaurant叫什么' }))[0]).toBe('memory/food.md');
  });
});

describe('English questions', () => {
  const notes = {
    'MEMORY.md': '# Home lab\n\nNAS: Synology, IP 192.168.1.20, admin page on port 5001.\n',
    'memory/garden.md': '# Garden\n\nWhat is the best bed? The tomatoes did best in the south bed; what the slugs ate most was the lettuce.\n',
    'memory/security.md':
      '# Security\n\nPatched CVE-2024-3094 (xz) on build-07 and closed ticket #1234.\nConfig lives in /etc/claw/gateway.json, release v2.14.3.\n',
  };

  it("strips possessives, so the NAS's IP finds the NAS", async () => {
    const index = await indexWith(notes);
    expect(paths(await index.search({ query: "NAS's" }))).toEqual(['MEMORY.md']);
    expect(paths(await index.search({ query: "what is the NAS's IP" }))[0]).toBe('MEMORY.md');
    expect(paths(await index.search({ query: 'what is the NAS’s admin port' }))[0]).toBe('MEMORY.md');
  });

  it('gives question words no weight: they neither find nor rank notes', async () => {
    const index = await indexWith(notes);
    const result = await index.search({ query: 'what did I eat most' });
    expect(paths(result)).not.toContain('memory/garden.md');
  });

  it('returns nothing, with a hint, for a query of only common words', async () => {
    const index = await indexWith(notes);
    const result = await index.search({ query: 'what is the', minScore: 0 });
    expect(result.results).toEqual([]);
    expect(result.hint).toMatch(/only common words/i);
  });

  it('keeps identifiers exact: CVE ids, ticket numbers, paths, versions, IPs', async () => {
    const index = await indexWith(notes);
    for (const query of ['CVE-2024-3094', '#1234', '/etc/claw/gateway.json', 'v2.14.3', '192.168.1.20', 'build-07']) {
      expect(paths(await index.search({ query })), query).toEqual([query === '192.168.1.20' ? 'MEMORY.md' : 'memory/security.md']);
    }
    expect(paths(await index.search({ query: 'CVE-2024-9999' }))).toEqual([]);
  });
});

describe('scores', () => {
  const notes = {
    'memory/kafka.md': '# Kafka\n\nKafka cluster kafka-prod-1 keeps orders for seven days.\n',
    'memory/garden.md': '# Garden\n\nThe tomatoes did best in the south bed.\n',
    'memory/travel.md': '# Travel\n\nThe flight to Lisbon leaves from gate B12.\n',
  };

  it('puts a full match near 1 and a note matching one word of four below the cut-off', async () => {
    const index = await indexWith(notes);
    const full = await index.search({ query: 'kafka orders retention days', minScore: 0 });
    expect(full.results[0]?.path).toBe('memory/kafka.md');
    const weak = await index.search({ query: 'tomatoes giraffe volcano saxophone' });
    expect(weak.results).toEqual([]);
    const strong = await index.search({ query: 'kafka orders' });
    expect(strong.results[0]!.score).toBeGreaterThanOrEqual(0.8);
  });

  it('means the same across queries: a one-word exact hit scores like a two-word one', async () => {
    const index = await indexWith(notes);
    const one = (await index.search({ query: 'Lisbon' })).results[0]!.score;
    const two = (await index.search({ query: 'Lisbon flight' })).results[0]!.score;
    expect(Math.abs(one - two)).toBeLessThan(0.15);
  });

  it('explains each hit: terms matched, keyword score, recency', async () => {
    const index = await indexWith(notes);
    const result = await index.search({ query: 'kafka orders giraffe', minScore: 0, explain: true });
    const explain = result.results[0]!.explain!;
    expect(explain.matched.sort()).toEqual(['kafka', 'orders']);
    expect(explain.missing).toEqual(['giraffe']);
    expect(explain.keyword).toBeGreaterThan(0);
    expect(explain.vector).toBeUndefined();
    expect((await index.search({ query: 'kafka' })).results[0]!.explain).toBeUndefined();
  });
});

describe('newest fact wins', () => {
  const changing = {
    'memory/2026-08-04.md': '# Monday\n\nApp database: Postgres. Moved the app database to Postgres on db-01.\n',
    'memory/2026-11-12.md':
      '# Wednesday\n\nSwitched to SQLite for the app database after a long week of Postgres upkeep, backups and tuning that took most evenings.\n',
    'memory/2026-06-01.md': '# June\n\nThe NAS admin password rotation is due; the NAS IP is 10.0.0.5.\n',
    'memory/2026-12-01.md': '# December\n\nCleaned the NAS fans.\n',
  };

  it('ranks the newest dated note first when the question asks for the current state', async () => {
    const index = await indexWith(changing);
    for (const query of [
      'what app database do I use now',
      'latest database change',
      'which database did I switch to most recently',
      'app database currently',
    ]) {
      expect(paths(await index.search({ query }))[0], query).toBe('memory/2026-11-12.md');
    }
  });

  it('does the same for Chinese current-state questions', async () => {
    const index = await indexWith({
      'memory/2026-03-01.md': '# 三月\n\n我把博客部署在阿里云的服务器上。\n',
      'memory/2026-09-20.md': '# 九月\n\n博客迁到了自己家里的服务器，部署在树莓派上。\n',
    });
    for (const query of ['博客现在部署在哪里', '博客最后部署在哪', '最近博客部署']) {
      expect(paths(await index.search({ query }))[0], query).toBe('memory/2026-09-20.md');
    }
  });

  it('breaks ties by date, newest first, even without asking', async () => {
    const same = '# Standup\n\nThe release train for project heron moved to Thursday.\n';
    const index = await indexWith({ 'memory/2026-01-15.md': same, 'memory/2026-06-28.md': same });
    expect(paths(await index.search({ query: 'heron release train' }))).toEqual(['memory/2026-06-28.md', 'memory/2026-01-15.md']);
  });

  it('dates undated chunks by their Updated: line or date heading, else by the file time', async () => {
    // Small chunks, so each dated section of MEMORY.md is a chunk of its own.
    fx = memoryFixture({ chunking: { tokens: 32, overlap: 0 } });
    fx.write('MEMORY.md', '# Editor\n\n## 2026-02-01\nMy editor is Vim with a plain config.\n\n## 2026-10-09\nMy editor is Helix, with the default keymap.\n');
    fx.write('memory/a-shell.md', '# Shell\n\nUpdated: 2026-03-05\n\nThe login shell is zsh with starship.\n');
    const fish = fx.write('memory/shell.md', '# Shell\n\nThe login shell is fish with starship.\n');
    utimesSync(fish, new Date('2026-09-01T00:00:00Z'), new Date('2026-09-01T00:00:00Z'));
    const index = fx.open();
    await index.sync();
    const editor = await index.search({ query: 'which editor do I use now' });
    expect(editor.results[0]?.snippet).toContain('Helix');
    expect(editor.results[0]?.snippet).not.toContain('Vim');
    const shell = await index.search({ query: 'current login shell' });
    expect(paths(shell)[0]).toBe('memory/shell.md');
  });

  it('leaves plain lookups alone: the note that holds the answer stays first', async () => {
    const index = await indexWith(changing);
    expect(paths(await index.search({ query: "what is the NAS's IP" }))[0]).toBe('memory/2026-06-01.md');
    expect(paths(await index.search({ query: 'db-01' }))[0]).toBe('memory/2026-08-04.md');
  });
});

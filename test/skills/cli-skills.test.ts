import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeRawConfig } from '../../source/config/index.js';
import { assertBuilt, cliEntry, runClaw } from '../cli/cli-process.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { simpleSkill, writeSkill } from './skill-fixtures.js';

const FIXTURES = fileURLToPath(new URL('./fixtures', import.meta.url));
const hasZipTools = existsSync('/usr/bin/zip') && existsSync('/usr/bin/unzip');
const slow = { timeout: 120_000 };
let state: TempState;
let scratch: string;
let env: NodeJS.ProcessEnv;

beforeAll(assertBuilt);
beforeEach(() => {
  state = makeTempState('claw-skills-cli-');
  scratch = mkdtempSync(join(tmpdir(), 'claw-skills-src-'));
  // A home of its own: the machine's ~/.agents/skills stays out.
  env = { ...state.env, HOME: join(scratch, 'home') };
});
afterEach(() => {
  state.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

describe('claw skills list and check', () => {
  it('shows every skill with its status column, and check exits 1 only while a skill is broken', slow, async () => {
    const root = join(state.paths.workspace('main'), 'skills');
    simpleSkill(root, 'claw-config', 'My override of the bundled one.');
    writeSkill(root, 'gh-tools', 'name: gh-tools\ndescription: "GitHub helpers."\nmetadata: {"claw": {"requires": {"bins": ["definitely-missing"]}}}');
    writeSkill(root, 'broken-yaml', 'name: broken-yaml\ndescription: Use when: anything');

    const list = await runClaw(['skills', 'list'], env);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^NAME\s+SOURCE\s+STATUS$/m);
    expect(list.stdout).toMatch(/^gh-tools\s+workspace\s+needs bin definitely-missing$/m);
    expect(list.stdout).toMatch(/^broken-yaml\s+workspace\s+broken: invalid YAML in the frontmatter, line 3/m);
    expect(list.stdout).toMatch(new RegExp(`^claw-config\\s+bundled\\s+shadowed by ${join(root, 'claw-config', 'SKILL.md')}$`, 'm'));
    expect(list.stdout).toMatch(/^memory-hygiene\s+bundled\s+ready$/m);

    const check = await runClaw(['skills', 'check'], env);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('broken-yaml: broken: invalid YAML');
    expect(check.stdout).toContain('gh-tools: needs bin definitely-missing');
    expect(check.stdout).toMatch(/\d+ ready, 2 not offered \(needs, disabled or shadowed\), 1 broken/);

    rmSync(join(root, 'broken-yaml'), { recursive: true });
    expect((await runClaw(['skills', 'check'], env)).code).toBe(0);

    const json = JSON.parse((await runClaw(['skills', 'list', '--json'], env)).stdout) as {
      skills: Array<{ name: string; status: string }>;
      prompt: { form: string };
    };
    expect(json.skills.find((skill) => skill.name === 'gh-tools')?.status).toBe('needs bin definitely-missing');
    expect(json.prompt.form).toBe('full');
  });

  it('refuses an unknown agent or option with what to do', slow, async () => {
    const agent = await runClaw(['skills', 'list', '--agent', 'ghost'], env);
    expect(agent.code).toBe(2);
    expect(agent.stderr).toContain('no agent "ghost" (configured: main)');
    const option = await runClaw(['skills', 'list', '--frob'], env);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain('unknown option --frob');
  });
});

describe('claw skills install', () => {
  function fixtureCopy(): string {
    const dir = join(scratch, 'src', 'pdf-processing');
    cpSync(join(FIXTURES, 'pdf-processing'), dir, { recursive: true });
    chmodSync(join(dir, 'scripts', 'extract.py'), 0o755);
    return dir;
  }

  it('shows what a folder declares and its executable files, and needs --yes without a terminal', slow, async () => {
    const source = fixtureCopy();
    const refused = await runClaw(['skills', 'install', source], env);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('Skill "pdf-processing": Extracts text and tables');
    expect(refused.stdout).toContain('needs          one of: python3, python');
    expect(refused.stdout).toContain('allowed-tools  Bash(python3:*), Read');
    expect(refused.stdout).toMatch(/executable files \(they run through exec, with approvals\):\n\s+scripts\/extract\.py/);
    expect(refused.stderr).toContain('not installed: confirm with --yes (this skill contains executable files)');
    expect(existsSync(join(state.paths.skills, 'pdf-processing'))).toBe(false);

    const installed = await runClaw(['skills', 'install', source, '--yes'], env);
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain(`Installed "pdf-processing" to ${join(state.paths.skills, 'pdf-processing')}`);
    expect(readFileSync(join(state.paths.skills, 'pdf-processing', 'references', 'FORMS.md'), 'utf8')).toContain('field names');
    expect((await runClaw(['skills', 'list'], env)).stdout).toMatch(/^pdf-processing\s+managed\s+(ready|needs one of bins python3, python)$/m);

    const again = await runClaw(['skills', 'install', source, '--yes'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists. Remove it first');
  });

  it('installs from a .tar.gz into the workspace', slow, async () => {
    const source = fixtureCopy();
    const tarball = join(scratch, 'pdf.tar.gz');
    execFileSync('tar', ['-czf', tarball, '-C', join(scratch, 'src'), 'pdf-processing']);
    rmSync(source, { recursive: true });
    const fromTar = await runClaw(['skills', 'install', tarball, '--workspace', '--yes'], env);
    expect(fromTar.code).toBe(0);
    const workspaceCopy = join(state.paths.workspace('main'), 'skills', 'pdf-processing');
    expect(existsSync(join(workspaceCopy, 'scripts', 'extract.py'))).toBe(true);
    expect(readFileSync(join(workspaceCopy, 'SKILL.md'), 'utf8')).toBe(readFileSync(join(FIXTURES, 'pdf-processing', 'SKILL.md'), 'utf8'));
  });

  it.skipIf(!hasZipTools)('installs from a .zip into ~/.claw/skills (needs Debian zip and unzip)', slow, async () => {
    const source = fixtureCopy();
    const zip = join(scratch, 'pdf.zip');
    execFileSync('zip', ['-qr', zip, 'pdf-processing'], { cwd: join(scratch, 'src') });
    rmSync(source, { recursive: true });
    const fromZip = await runClaw(['skills', 'install', zip, '--yes'], env);
    expect(fromZip.code).toBe(0);
    expect(existsSync(join(state.paths.skills, 'pdf-processing', 'references', 'FORMS.md'))).toBe(true);
    expect((await runClaw(['skills', 'list'], env)).stdout).toMatch(/^pdf-processing\s+managed\s+(ready|needs one of bins python3, python)$/m);
  });

  it('refuses broken skills, links, several skills at once and non-archives, copying nothing', slow, async () => {
    writeSkill(join(scratch, 'bad'), 'no-desc', 'name: no-desc');
    const broken = await runClaw(['skills', 'install', join(scratch, 'bad', 'no-desc'), '--yes'], env);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('is broken: the frontmatter has no description');

    const linked = simpleSkill(join(scratch, 'links'), 'linked');
    symlinkSync('/etc/passwd', join(linked, 'passwd'));
    const link = await runClaw(['skills', 'install', linked, '--yes'], env);
    expect(link.code).toBe(1);
    expect(link.stderr).toContain('passwd is a symbolic link; skills with links are not installed');

    simpleSkill(join(scratch, 'many'), 'one');
    simpleSkill(join(scratch, 'many'), 'two');
    const many = await runClaw(['skills', 'install', join(scratch, 'many'), '--yes'], env);
    expect(many.stderr).toContain('holds 2 skills (one, two); install them one folder at a time');

    writeFileSync(join(scratch, 'notes.txt'), 'x');
    const text = await runClaw(['skills', 'install', join(scratch, 'notes.txt'), '--yes'], env);
    expect(text.stderr).toContain('is neither a folder nor a .tar.gz/.tgz/.zip archive');
    expect(existsSync(state.paths.skills)).toBe(false);
  });
});

const hasScript = existsSync('/usr/bin/script');

/** Runs `claw …args` on a real terminal (util-linux `script` gives it a pty) and answers the first prompt. */
function runOnTerminal(args: string[], answer: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const command = [process.execPath, cliEntry, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
    const child = spawn('script', ['-qec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    let answered = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no prompt on the terminal:\n${output}`));
    }, 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!answered && output.includes('Install this skill? [y/N]')) {
        answered = true;
        child.stdin.write(`${answer}\r`);
      }
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe.skipIf(!hasScript)('claw skills install on a terminal (needs util-linux script for a pty)', () => {
  it('asks before copying: "n" leaves nothing behind, "y" installs', slow, async () => {
    const source = simpleSkill(join(scratch, 'src'), 'asked');
    const declined = await runOnTerminal(['skills', 'install', source], 'n');
    expect(declined.output).toContain('Not installed.');
    expect(declined.code).toBe(1);
    expect(existsSync(join(state.paths.skills, 'asked'))).toBe(false);
    const accepted = await runOnTerminal(['skills', 'install', source], 'y');
    expect(accepted.code).toBe(0);
    expect(accepted.output).toContain('Installed "asked"');
    expect(existsSync(join(state.paths.skills, 'asked', 'SKILL.md'))).toBe(true);
  });
});

describe('skills.entries.<name>.env', () => {
  it('never prints its values in claw config get or set', slow, async () => {
    mkdirSync(state.dir, { recursive: true });
    writeRawConfig(state.paths.config, { skills: { entries: { gh: { env: { GH_TOKEN: 'ghp_supersecretvalue' } } } } });
    for (const key of [undefined, 'skills', 'skills.entries', 'skills.entries.gh', 'skills.entries.gh.env', 'skills.entries.gh.env.GH_TOKEN']) {
      const result = await runClaw(['config', 'get', ...(key ? [key] : [])], env);
      expect(result.code).toBe(0);
      expect(result.stdout).not.toContain('ghp_supersecretvalue');
      expect(result.stdout).toContain('[redacted]');
    }
    const set = await runClaw(['config', 'set', 'skills.entries.gh.env.OTHER', 'another-secret'], env);
    expect(set.code).toBe(0);
    expect(set.stdout).toBe('skills.entries.gh.env.OTHER = [redacted]\n');
    expect(JSON.parse(readFileSync(state.paths.config, 'utf8'))).toMatchObject({ skills: { entries: { gh: { env: { OTHER: 'another-secret' } } } } });
  });
});

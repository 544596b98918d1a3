import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { ApprovalPrompt } from '../../source/tui/components/ApprovalPrompt.js';
import { approvalLines } from '../../source/tui/text/approval-lines.js';
import { revealText, revealWarning } from '../../source/protocol/index.js';
import { approvalFixture } from '../tui/support/fixtures.js';

function frameOf(command: string, extra: Partial<Parameters<typeof approvalFixture>[0]> = {}): string {
  const approval = approvalFixture({ command, ...extra });
  const view = render(<ApprovalPrompt lines={approvalLines(approval, 100, approval.createdAt, false, 0)} width={100} />);
  const frame = view.lastFrame() ?? '';
  view.unmount();
  return frame;
}

describe('the approval prompt shows what runs', () => {
  it('text concealed with \\e[8m is visible, escaped, with a warning', () => {
    const frame = frameOf('echo Listing files \u001b[8m; touch X \u001b[28m');
    expect(frame).toContain('$ echo Listing files \\e[8m; touch X \\e[28m');
    expect(frame).not.toContain('\u001b[8m');
    expect(frame).toContain('⚠ 2 hidden or control characters');
  });

  it('foreground-equals-background and cursor tricks are escaped too', () => {
    const frame = frameOf('ls \u001b[30;40mrm -rf ~\u001b[0m\r\u001b[2Kls');
    expect(frame).toContain('ls \\e[30;40mrm -rf ~\\e[0m\\r\\e[2Kls');
  });

  it.each([
    ['\u061c', '\\u{061C}'],
    ['\u{e0041}', '\\u{E0041}'],
    ['\u00ad', '\\u{00AD}'],
    ['\u2060', '\\u{2060}'],
    ['\u3164', '\\u{3164}'],
    ['\u2028', '\\u{2028}'],
    ['\u200b', '\\u{200B}'],
    ['\ufeff', '\\u{FEFF}'],
    ['\u202e', '\\u{202E}'],
    ['\u2066', '\\u{2066}'],
    ['\u00a0', '\\u{00A0}'],
    ['\u0085', '\\x85'],
  ])('invisible or bidi %j is shown as %s and flagged', (ch, shown) => {
    const revealed = revealText(`touch a${ch}b`);
    expect(revealed.text).toBe(`touch a${shown}b`);
    expect(revealed.escaped).toBe(1);
    expect(frameOf(`touch a${ch}b`)).toContain(`touch a${shown}b`);
  });

  it('a workdir or reason carrying escapes is revealed as well', () => {
    const frame = frameOf('ls', { cwd: '/ws/\u001b[8mhidden', reason: 'x\u200by' });
    expect(frame).toContain('cwd /ws/\\e[8mhidden');
    expect(frame).toContain('x\\u{200B}y');
    expect(frame).toContain('hidden or control characters');
  });

  it('plain commands, including multi-line ones and non-Latin text, are shown as they are without a warning', () => {
    expect(revealText('echo "héllo wörld" && ls\ncat ファイル.txt')).toEqual({ text: 'echo "héllo wörld" && ls\ncat ファイル.txt', escaped: 0 });
    expect(revealWarning(0)).toBeUndefined();
    expect(frameOf('git status')).not.toContain('hidden');
  });
});

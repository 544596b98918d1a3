import type { ApprovalRecord } from '../../protocol/index.js';
import { formatDuration } from './format.js';
import type { Line } from './chat-lines.js';
import { wrapText } from './wrap.js';
import { revealText, revealWarning } from '../../protocol/index.js';

/**
 * The approval prompt's lines: the command is wrapped in full, never cut,
 * and every control, escape, invisible or bidi character in it (or in the
 * cwd and reason, which the model also shapes) is shown escaped, with a
 * warning line; what runs is still the raw command.
 */
export function approvalLines(approval: ApprovalRecord, width: number, now: number, confirmingAlways: boolean, queued: number): Line[] {
  const inner = Math.max(10, width - 2);
  const left = approval.expiresAt - now;
  const command = revealText(approval.command);
  const cwd = revealText(approval.cwd);
  const reason = revealText(approval.reason);
  const warning = revealWarning(command.escaped + cwd.escaped + reason.escaped);
  const lines: Line[] = [
    {
      text: `⚠ ${approval.kind} approval requested${queued > 0 ? ` (+${queued} more waiting)` : ''} · ${left > 0 ? `${formatDuration(left)} left, then denied` : 'expired'}`,
      color: 'yellow',
      bold: true,
    },
    ...wrapText(command.text, inner - 2).map((text) => ({ text: `$ ${text}`, bold: true })),
    ...(warning ? wrapText(warning, inner).map((text) => ({ text, color: 'red' as const, bold: true })) : []),
    ...wrapText(`cwd ${cwd.text} · agent ${approval.agentId} · ${approval.sessionKey}`, inner).map((text) => ({ text, color: 'gray' as const })),
  ];
  if (approval.reason) lines.push(...wrapText(`why: ${reason.text}`, inner).map((text) => ({ text, color: 'gray' as const })));
  if (confirmingAlways) {
    lines.push(
      ...wrapText(`Always allow for agent ${approval.agentId}: writes an allowlist rule matching \`${command.text}\`. y/Enter confirm · n/Esc back`, inner).map(
        (text) => ({ text, color: 'magenta' as const, bold: true }),
      ),
    );
  } else {
    lines.push(...wrapText('y once · s this session · a always… · n deny · Esc leave pending', inner).map((text) => ({ text, color: 'cyan' as const })));
  }
  return lines;
}

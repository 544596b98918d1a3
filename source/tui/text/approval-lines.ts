import type { ApprovalRecord } from '../../protocol/index.js';
import { formatDuration } from './format.js';
import type { Line } from './chat-lines.js';
import { wrapText } from './wrap.js';

/** The approval prompt's lines: the command is wrapped in full, never cut. */
export function approvalLines(approval: ApprovalRecord, width: number, now: number, confirmingAlways: boolean, queued: number): Line[] {
  const inner = Math.max(10, width - 2);
  const left = approval.expiresAt - now;
  const lines: Line[] = [
    { text: `⚠ ${approval.kind} approval requested${queued > 0 ? ` (+${queued} more waiting)` : ''} · ${left > 0 ? `${formatDuration(left)} left, then denied` : 'expired'}`, color: 'yellow', bold: true },
    ...wrapText(approval.command, inner - 2).map((text) => ({ text: `$ ${text}`, bold: true })),
    ...wrapText(`cwd ${approval.cwd} · agent ${approval.agentId} · ${approval.sessionKey}`, inner).map((text) => ({ text, color: 'gray' as const })),
  ];
  if (approval.reason) lines.push(...wrapText(`why: ${approval.reason}`, inner).map((text) => ({ text, color: 'gray' as const })));
  if (confirmingAlways) {
    lines.push(...wrapText(`Always allow for agent ${approval.agentId}: writes an allowlist rule matching \`${approval.command}\`. y/Enter confirm · n/Esc back`, inner).map((text) => ({ text, color: 'magenta' as const, bold: true })));
  } else {
    lines.push(...wrapText('y once · s this session · a always… · n deny · Esc leave pending', inner).map((text) => ({ text, color: 'cyan' as const })));
  }
  return lines;
}

import { Box, Text } from 'ink';
import { CTRL_C_WINDOW_MS } from '../keymap-constants.js';
import { selectFooter, selectPaneSummary } from '../store/selectors.js';
import type { TuiState } from '../store/state.js';
import { formatTokens } from '../text/format.js';
import { stringWidth, truncate } from '../text/width.js';

/** The hint for whoever holds the keyboard: one line, the keys that matter now. */
function hintFor(state: TuiState, running: boolean, now: number): string {
  if (state.ui.ctrlCAt !== undefined && now - state.ui.ctrlCAt < CTRL_C_WINDOW_MS) return 'Ctrl+C again to quit';
  if (state.ui.focus !== 'chat') {
    return state.ui.focus === 'sessions'
      ? 'typing goes to the input · ↑/↓ Enter switch · z zoom · h hide · Esc back'
      : 'typing goes to the input · z zoom · h hide · Esc back';
  }
  if (state.ui.editor.search) return 'Ctrl+R older · Enter take · Esc cancel';
  if (running) return 'Esc abort';
  return '/help · ? keys · Ctrl+F search · Tab focus';
}

/** The key or model failover skips now, soonest back first: " · ⏸ pa/big cooling 25s +1". */
function coolingText(state: TuiState, now: number): string {
  const active = (state.cooldowns ?? []).filter((c) => c.until > now);
  const first = active[0];
  if (!first) return '';
  const seconds = Math.ceil((first.until - now) / 1000);
  const left = seconds < 120 ? `${seconds}s` : `${Math.round(seconds / 60)}m`;
  return ` · ⏸ ${first.scope === 'model' ? first.label : `key ${first.label}`} cooling ${left}${active.length > 1 ? ` +${active.length - 1}` : ''}`;
}

const BAR_CELLS = 5;

/** Today's spend and the nearest cap as a small bar: " · $0.42 ▰▰▱▱▱ 38% bg/day". */
export function spendText(state: TuiState): string {
  const spend = state.spend;
  if (!spend) return '';
  const today = spend.usd > 0 || spend.tokens === 0 ? `$${spend.usd.toFixed(2)}` : `${formatTokens(spend.tokens)} tok`;
  const near = spend.nearest;
  if (!near || near.cap <= 0) return ` · ${today} today`;
  const share = near.used / near.cap;
  const filled = Math.min(BAR_CELLS, Math.round(share * BAR_CELLS));
  return ` · ${today} ${'▰'.repeat(filled)}${'▱'.repeat(BAR_CELLS - filled)} ${Math.round(share * 100)}% ${shortCap(near.key)}`;
}

/** `budgets.background.dailyUsd` → `bg/day`: the cap's name in a few columns. */
function shortCap(key: string): string {
  const [, scope = '', kind = ''] = key.split('.');
  const period = /monthly|Monthly/.test(key) ? 'month' : scope === 'session' ? 'session' : scope === 'turn' ? 'turn' : 'day';
  const who = scope === 'background' ? (kind.startsWith('daily') ? 'bg' : kind) : scope === 'globalDaily' ? 'all' : scope.startsWith('agent') ? 'agent' : scope;
  return `${who}/${period}`;
}

export function Footer({ state, width, now }: { state: TuiState; width: number; now: number }) {
  const f = selectFooter(state);
  const tokens = f.window > 0 ? `${formatTokens(f.used)}/${formatTokens(f.window)}` : formatTokens(f.used);
  const summary = selectPaneSummary(state);
  const mode = f.mode === 'ask' ? '' : ` · mode ${f.mode}`;
  const left = ` ${f.model} · think ${f.thinking}${mode} · ${tokens} tok${spendText(state)}${summary ? ` · ${summary}` : ''}`;
  const approvals = `${f.pendingApprovals > 0 ? ` · ⚠ ${f.pendingApprovals} approval${f.pendingApprovals > 1 ? 's' : ''}` : ''}${coolingText(state, now)}`;
  const hint = ` · ${hintFor(state, f.running, now)}`;
  const leftCut = truncate(left, width);
  const room = Math.max(0, width - stringWidth(leftCut));
  const approvalsCut = truncate(approvals, room);
  return (
    <Box width={width} height={1}>
      <Text dimColor wrap="truncate">
        {leftCut}
      </Text>
      <Text color="yellow" bold wrap="truncate">
        {approvalsCut}
      </Text>
      <Text dimColor wrap="truncate">
        {truncate(hint, Math.max(0, room - stringWidth(approvalsCut)))}
      </Text>
    </Box>
  );
}

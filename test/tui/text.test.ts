import { describe, expect, it } from 'vitest';
import { computeLayout, focusOrder } from '../../source/tui/layout.js';
import { contextSegments, thresholdCell } from '../../source/tui/store/selectors.js';
import { chatWindow } from '../../source/tui/text/chat-lines.js';
import { formatTokens, shortSessionKey } from '../../source/tui/text/format.js';
import { buildSubagentTree } from '../../source/tui/text/tree.js';
import inkWidth from 'string-width';
import { displayText, padTo, stringWidth, truncate } from '../../source/tui/text/width.js';
import { wrapText } from '../../source/tui/text/wrap.js';
import type { ChatItem } from '../../source/tui/store/state.js';

describe('cell widths', () => {
  it('counts CJK and emoji as two cells and combining marks as none', () => {
    expect(stringWidth('abc')).toBe(3);
    expect(stringWidth('投资目标')).toBe(8);
    expect(stringWidth('👍')).toBe(2);
    expect(stringWidth('e\u0301')).toBe(1);
    expect(stringWidth('ｱ')).toBe(1);
    expect(stringWidth('한국어')).toBe(6);
  });

  it('draws emoji sequences in a form tmux, xterm and Ink (string-width) all measure alike', () => {
    // tmux 3.3 draws 👍🏽 in 4 cells and ❤️ in 1; kitty draws 👨‍👩‍👧 in 2 and xterm in 6.
    expect(displayText('👨‍👩‍👧')).toBe('👨👩👧');
    expect(displayText('👍🏽')).toBe('👍');
    expect(displayText('❤️')).toBe('❤');
    expect(stringWidth('👨‍👩‍👧 👍🏽 ❤️')).toBe(6 + 1 + 2 + 1 + 1);
    const text = 'family 👨‍👩‍👧 thumbs 👍🏽 heart ❤️ flag 🇫🇷 投资 '.repeat(6);
    for (const width of [17, 40, 79]) {
      for (const line of wrapText(text, width)) {
        expect(stringWidth(line)).toBeLessThanOrEqual(width);
        expect(inkWidth(line)).toBe(stringWidth(line));
      }
      const cut = padTo(text, width);
      expect(inkWidth(cut)).toBe(width);
    }
  });

  it('truncates and pads by cells, not code units', () => {
    expect(truncate('投资目标很好', 7)).toBe('投资目…');
    expect(stringWidth(truncate('投资目标很好', 7))).toBeLessThanOrEqual(7);
    expect(padTo('ab', 4)).toBe('ab  ');
    expect(stringWidth(padTo('投资', 5))).toBe(5);
  });
});

describe('wrapText', () => {
  it('breaks at spaces, keeps explicit newlines and never drops characters', () => {
    expect(wrapText('hello big world', 9)).toEqual(['hello big', 'world']);
    expect(wrapText('a\nb', 10)).toEqual(['a', 'b']);
    const long = 'x'.repeat(25);
    expect(wrapText(long, 10).join('')).toBe(long);
  });

  it('wraps CJK by cell width', () => {
    const lines = wrapText('投资目标投资目标', 6);
    expect(lines).toEqual(['投资目', '标投资', '目标']);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(6);
  });
});

describe('layout', () => {
  it('fits 80×24 with one sidebar and 160×48 with two', () => {
    const small = computeLayout({ cols: 80, rows: 24, hidden: [], bottomRows: 2 });
    expect(small.height).toBe(23);
    expect(small.left?.width).toBeGreaterThan(10);
    expect(small.right).toBeUndefined();
    expect(small.left!.panes.reduce((s, p) => s + p.height, 0)).toBe(small.bodyHeight);
    expect(small.chatWidth + small.left!.width).toBe(80);
    const big = computeLayout({ cols: 160, rows: 48, hidden: [], bottomRows: 2 });
    expect(big.left && big.right).toBeTruthy();
    expect(big.right!.panes.map((p) => p.id)).toEqual(['context', 'subagents']);
  });

  it('hides and zooms panes', () => {
    const hidden = computeLayout({ cols: 160, rows: 48, hidden: ['sessions', 'lanes', 'schedule'], bottomRows: 2 });
    expect(hidden.left).toBeUndefined();
    expect(focusOrder(hidden)).toEqual(['chat', 'context', 'subagents']);
    const zoomed = computeLayout({ cols: 80, rows: 24, hidden: [], zoom: 'context', bottomRows: 2 });
    expect(zoomed.zoomed).toBe('context');
    expect(focusOrder(zoomed)).toEqual(['context']);
  });
});

describe('chatWindow', () => {
  const items = (n: number): ChatItem[] => Array.from({ length: n }, (_, i) => ({ kind: 'notice', id: `n${i}`, text: `line ${i}` }));

  it('returns the newest lines, and older ones when scrolled', () => {
    const view = chatWindow(items(100), undefined, 40, 5, 0, false);
    expect(view.lines.map((l) => l.text)).toEqual(['· line 95', '· line 96', '· line 97', '· line 98', '· line 99']);
    const up = chatWindow(items(100), undefined, 40, 5, 10, false);
    expect(up.lines.at(-1)?.text).toBe('· line 89');
    expect(up.above).toBeGreaterThan(0);
  });

  it('draws the stream after settled items with a cursor', () => {
    const view = chatWindow(items(3), 'partial reply', 40, 10, 0, false);
    expect(view.lines.at(-1)?.text).toBe('  partial reply▍');
  });
});

describe('other helpers', () => {
  it('splits the context bar in proportion and marks thresholds', () => {
    const segments = contextSegments(
      [
        { name: 'system', tokens: 250 },
        { name: 'history', tokens: 500 },
      ],
      1000,
      20,
    );
    expect(segments.map((s) => s.cells)).toEqual([5, 10]);
    expect(thresholdCell(800, 1000, 20)).toBe(16);
  });

  it('builds the sub-agent tree under its parent', () => {
    const rows = buildSubagentTree(
      [
        { key: 'c1', parentKey: 'agent:main:main', label: 'research', status: 'running', startedAt: 0, depth: 1, lastTool: 'web_fetch' },
        { key: 'c2', parentKey: 'c1', label: 'summarise', status: 'done', startedAt: 1000, endedAt: 4000, depth: 2 },
      ],
      65_000,
    );
    expect(rows.map((r) => `${r.prefix}${r.label} ${r.elapsed}`)).toEqual(['└─research 1m05s', '  └─summarise 3s']);
  });

  it('formats tokens and session keys', () => {
    expect(formatTokens(950)).toBe('950');
    expect(formatTokens(12_345)).toBe('12k');
    expect(shortSessionKey('agent:main:telegram:direct:42')).toBe('telegram:direct:42');
  });
});

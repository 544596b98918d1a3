import { Box, Text } from 'ink';
import type { SearchHit } from '../../protocol/index.js';
import type { SearchUi, TuiState } from '../store/state.js';
import { formatAge, shortSessionKey } from '../text/format.js';
import { clipMarked } from '../text/marks.js';
import { padTo, truncate } from '../text/width.js';
import { MarkedText } from './MarkedText.js';

const SEARCH_ROWS = 6;

export function searchPopupHeight(search: SearchUi): number {
  return 1 + (search.status === 'done' && search.hits.length > 0 ? Math.min(SEARCH_ROWS, search.hits.length) : 1);
}

function HitRow({ hit, selected, width, now }: { hit: SearchHit; selected: boolean; width: number; now: number }) {
  const head = padTo(
    ` ${shortSessionKey(hit.sessionKey)} · ${formatAge(now - hit.timestamp)} · ${hit.role === 'user' ? '›' : ' '} `,
    Math.min(36, Math.floor(width / 3)),
  );
  const { text, ranges } = clipMarked(hit.snippet, hit.highlights, Math.max(10, width - head.length - 1));
  return (
    <Text inverse={selected} wrap="truncate">
      <Text dimColor={!selected}>{head}</Text>
      <MarkedText text={text} ranges={ranges} />
    </Text>
  );
}

/** Ctrl+F / /search: the query line, then ranked hits from every session. */
export function SearchPopup({ search, width, now }: { search: SearchUi; state: TuiState; width: number; now: number }) {
  const title = search.editing
    ? ` Search all sessions: ${search.query}▏ (Enter search · Esc close)`
    : ` Search "${search.query}": ${search.status === 'loading' ? 'searching…' : search.status === 'error' ? 'failed' : `${search.hits.length} hit${search.hits.length === 1 ? '' : 's'}${search.tookMs !== undefined ? ` in ${Math.round(search.tookMs)} ms` : ''}`} · ↑/↓ Enter jump · n/N next/prev · / edit · Esc close`;
  const start = Math.max(0, Math.min(search.index - SEARCH_ROWS + 1, search.hits.length - SEARCH_ROWS));
  return (
    <Box flexDirection="column" width={width}>
      <Text bold color="cyan" wrap="truncate">
        {truncate(title, width)}
      </Text>
      {search.status === 'error' ? (
        <Text color="red" wrap="truncate">
          {truncate(` ✗ ${search.error ?? 'search failed'}`, width)}
        </Text>
      ) : null}
      {search.status === 'done' && search.hits.length === 0 ? (
        <Text dimColor wrap="truncate">
          {' '}
          no message matches; / to change the query
        </Text>
      ) : null}
      {search.status === 'idle' || search.status === 'loading' ? (
        <Text dimColor wrap="truncate">
          {search.status === 'loading' ? ' searching every transcript…' : ' type words to find (any language); Enter searches'}
        </Text>
      ) : null}
      {search.status === 'done'
        ? search.hits
            .slice(start, start + SEARCH_ROWS)
            .map((hit, i) => <HitRow key={`${hit.sessionKey}:${hit.entryId}`} hit={hit} selected={start + i === search.index} width={width} now={now} />)
        : null}
    </Box>
  );
}

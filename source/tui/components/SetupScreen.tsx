import { Box, Text } from 'ink';
import type { SetupCandidate } from '../../protocol/index.js';
import { CUSTOM_ROW, filteredModels, type SetupUi } from '../setup/setup-state.js';

interface Row {
  text: string;
  color?: string;
  bold?: boolean;
  dim?: boolean;
  /** Errors wrap (they are read, not copied); everything else is one line. */
  wrap?: boolean;
}

const HINTS: Partial<Record<SetupUi['step'], string>> = {
  provider: '↑/↓ choose · Enter select · Esc back to chat',
  url: 'Enter continue · Esc back to chat',
  key: 'Enter continue · Ctrl+U clear · Esc back to chat',
  model: 'type to filter or type any id · ↑/↓ choose · Enter test it · Esc back to chat',
  failed: 'Enter choose another model · Esc back to chat',
  agentName: 'Enter to skip or continue · Esc back to chat',
  userName: 'Enter to skip or save · Esc back to chat',
  done: 'Enter start chatting',
};

function candidateRow(c: SetupCandidate): string {
  const mark = c.source === 'preset' ? (c.keyFound ? '  ← key saved' : '') : '  ← found';
  return `${c.label} — ${c.detail}${mark}`;
}

/** A window of the list that keeps the highlighted row visible. */
function listRows(items: readonly string[], index: number, room: number): Row[] {
  const size = Math.max(1, room);
  const start = Math.min(Math.max(0, index - Math.floor(size / 2)), Math.max(0, items.length - size));
  return items.slice(start, start + size).map((item, i) => {
    const selected = start + i === index;
    return { text: `${selected ? '❯' : ' '} ${item}`, ...(selected ? { color: 'cyan', bold: true } : {}) };
  });
}

function input(text: string, hidden = false): Row {
  return { text: `> ${hidden ? '•'.repeat(Math.min(text.length, 40)) : text}▏`, color: 'cyan' };
}

function stepRows(setup: SetupUi, room: number): Row[] {
  const ref = setup.candidate && setup.model ? `${setup.candidate.provider}/${setup.model}` : '';
  const error: Row[] = setup.error ? [{ text: setup.error, color: 'red', wrap: true }] : [];
  switch (setup.step) {
    case 'detecting':
      return [{ text: "Looking for what the gateway's machine has: environment keys, Ollama, local OpenAI-compatible servers…" }];
    case 'provider': {
      const found = setup.candidates.filter((c) => c.source !== 'preset').length;
      const head: Row = {
        text: found > 0 ? `Found ${found} on this machine; they come first. Choose a provider:` : 'Nothing found locally. Choose a provider:',
      };
      return [head, ...listRows([...setup.candidates.map(candidateRow), CUSTOM_ROW], setup.index, room - 2), ...error];
    }
    case 'url':
      return [{ text: 'Base URL of the OpenAI-compatible server (e.g. http://127.0.0.1:8000/v1):' }, input(setup.text), ...error];
    case 'key': {
      const c = setup.candidate!;
      const optional = c.source === 'custom' ? ' if the server needs one (Enter for none)' : '';
      return [
        { text: `Paste your ${c.label} API key${optional}. It is hidden, and saved to credentials/${c.provider}.json (0600).` },
        input(setup.text, true),
        ...error,
      ];
    }
    case 'models':
      return [{ text: `Fetching the model list from ${setup.candidate?.label ?? 'the provider'}…` }];
    case 'model': {
      const models = filteredModels(setup);
      const typed = setup.text.trim();
      const none = models.length === 0 ? [{ text: typed ? `Enter tests "${typed}" as the model id.` : 'No model list; type the model id.', dim: true }] : [];
      return [
        { text: `Model for ${setup.candidate?.label ?? 'the provider'}:` },
        input(setup.text),
        ...error,
        ...none,
        ...listRows(models, setup.index, room - 3 - error.length),
      ];
    }
    case 'testing':
      return [{ text: `Testing ${ref} with one tiny request…` }];
    case 'failed':
      return [
        { text: ref ? `✗ ${ref} did not work:` : '✗ Setup failed:', color: 'red', bold: true },
        { text: setup.error ?? '', color: 'red', wrap: true },
      ];
    case 'agentName':
      return [
        { text: `✓ ${ref} answered: ${JSON.stringify(setup.answer ?? '')}`, color: 'green' },
        { text: '' },
        { text: "Optional: the assistant's name (written to IDENTITY.md; Enter skips):" },
        input(setup.text),
      ];
    case 'userName':
      return [{ text: 'Optional: your name (written to USER.md; Enter skips and saves):' }, input(setup.text)];
    case 'saving':
      return [{ text: 'Saving…' }];
    case 'done':
      return [...(setup.saved ?? []).map((text) => ({ text, color: 'green' })), { text: '' }, { text: 'Press Enter to start chatting.', bold: true }];
  }
}

/** The first-run setup, drawn in place of the chat and input while it is open. */
export function SetupScreen({ setup, width, height }: { setup: SetupUi; width: number; height: number }) {
  const rows = stepRows(setup, height - 4);
  const hint = HINTS[setup.step];
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden" paddingLeft={1}>
      <Text bold wrap="truncate">
        Set up a model — the same steps as `claw setup`
      </Text>
      <Text dimColor wrap="truncate">
        {hint ?? ' '}
      </Text>
      <Text> </Text>
      {rows.map((row, i) => (
        <Text key={i} color={row.color} bold={row.bold} dimColor={row.dim} wrap={row.wrap ? 'wrap' : 'truncate'}>
          {row.text === '' ? ' ' : row.text}
        </Text>
      ))}
    </Box>
  );
}

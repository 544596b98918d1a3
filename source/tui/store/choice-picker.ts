import { fuzzyScore } from './session-picker.js';
import type { TuiState } from './state.js';

type Picker = NonNullable<TuiState['ui']['picker']>;

export interface PickerChoice {
  value: string;
  description: string;
}

/**
 * The picker's options narrowed by what was typed (the same fuzzy match as
 * /sessions), best match first and the gateway's order on ties; the current
 * one is marked.
 */
export function pickerChoices(picker: Picker): PickerChoice[] {
  const filter = picker.filter ?? '';
  return picker.options
    .map((value, order) => ({ value, order, score: fuzzyScore(value, filter) }))
    .filter((entry): entry is { value: string; order: number; score: number } => entry.score !== undefined)
    .sort((a, b) => a.score - b.score || a.order - b.order)
    .map(({ value }) => {
      const description = picker.descriptions?.[value] ?? '';
      return { value, description: value === picker.current ? `● current${description ? ` · ${description}` : ''}` : description };
    });
}

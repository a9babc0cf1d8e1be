import type { RuleRow } from './rules.js';

interface RuleRowProps {
  row: RuleRow;
  /** 1-based, naming the row's controls ("Written, rule 2"). */
  number: number;
  onChange: (row: RuleRow) => void;
  onRemove: () => void;
  onPlay: (which: 'before' | 'after') => void;
  playing: boolean;
}

/** One rule: the written form, what to say instead (another spelling or phonemes), how it matches, its previews. */
export function RuleRowView({ row, number, onChange, onRemove, onPlay, playing }: RuleRowProps) {
  const set = (change: Partial<RuleRow>) => onChange({ ...row, ...change });
  const name = `rule ${number}`;
  const cannotPlay = playing || row.grapheme.trim() === '';
  return (
    <tr>
      <td>
        <input aria-label={`Written, ${name}`} value={row.grapheme} onInput={(event) => set({ grapheme: event.currentTarget.value })} />
      </td>
      <td>
        <select
          aria-label={`Say it by, ${name}`}
          value={row.kind}
          onChange={(event) => set({ kind: event.currentTarget.value === 'phonemes' ? 'phonemes' : 'alias' })}
        >
          <option value="alias">another spelling</option>
          <option value="phonemes">phonemes</option>
        </select>
      </td>
      <td>
        {row.kind === 'alias' ? (
          <input aria-label={`Spoken as, ${name}`} value={row.alias} onInput={(event) => set({ alias: event.currentTarget.value })} />
        ) : (
          <span class="pronunciation-said">
            <input aria-label={`Phonemes, ${name}`} value={row.phonemes} onInput={(event) => set({ phonemes: event.currentTarget.value })} />
            <select
              aria-label={`Alphabet, ${name}`}
              value={row.alphabet}
              onChange={(event) => set({ alphabet: event.currentTarget.value === 'x-sampa' ? 'x-sampa' : 'ipa' })}
            >
              <option value="ipa">IPA</option>
              <option value="x-sampa">X-SAMPA</option>
            </select>
          </span>
        )}
      </td>
      <td>
        <input
          type="checkbox"
          aria-label={`Match case, ${name}`}
          checked={row.case_sensitive}
          onChange={(event) => set({ case_sensitive: event.currentTarget.checked })}
        />
      </td>
      <td>
        <input
          type="checkbox"
          aria-label={`Whole word, ${name}`}
          checked={row.whole_word}
          onChange={(event) => set({ whole_word: event.currentTarget.checked })}
        />
      </td>
      <td class="pronunciation-actions">
        <button type="button" aria-label={`Play before, ${name}`} disabled={cannotPlay} onClick={() => onPlay('before')}>
          Play before
        </button>
        <button type="button" aria-label={`Play after, ${name}`} disabled={cannotPlay} onClick={() => onPlay('after')}>
          Play after
        </button>
        <button type="button" aria-label={`Remove, ${name}`} onClick={onRemove}>
          Remove
        </button>
      </td>
    </tr>
  );
}

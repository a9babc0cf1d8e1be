import './ssml-toolbar.css';
import { useState } from 'preact/hooks';
import { insertBreak, wrapSelection, type Edit } from './ssml-edit.js';

const PAUSES = ['250ms', '500ms', '1s', '2s'] as const;
const READINGS = [
  { value: 'characters', label: 'letter by letter' },
  { value: 'cardinal', label: 'a number' },
  { value: 'ordinal', label: 'an ordinal (1st)' },
  { value: 'digits', label: 'digit by digit' },
  { value: 'date', label: 'a date' },
  { value: 'telephone', label: 'a telephone number' },
] as const;

interface SsmlToolbarProps {
  /** The text box the markup goes into: its selection says where. */
  textarea: { current: HTMLTextAreaElement | null };
  onText: (text: string) => void;
}

/**
 * Buttons that write SSML into a text box around its selection (a pause at the caret): emphasis, a
 * reading (`say-as`), a spoken form (`sub`), slower and higher speech. The first one makes the text
 * SSML. The text box keeps the focus and the marked words stay selected, for the next button.
 */
export function SsmlToolbar({ textarea, onText }: SsmlToolbarProps) {
  const [pause, setPause] = useState<string>('500ms');
  const [reading, setReading] = useState<string>('characters');
  const [substituting, setSubstituting] = useState(false);
  const [alias, setAlias] = useState('');

  const apply = (change: (edit: Edit) => Edit) => {
    const box = textarea.current;
    if (!box) return;
    const next = change({ text: box.value, start: box.selectionStart, end: box.selectionEnd });
    onText(next.text);
    // After the render that writes the new text, which would otherwise move the caret to its end.
    requestAnimationFrame(() => {
      box.focus();
      box.setSelectionRange(next.start, next.end);
    });
  };
  const substitute = (event: Event) => {
    event.preventDefault();
    if (alias.trim() === '') return;
    apply((edit) => wrapSelection(edit, 'sub', { alias: alias.trim() }));
    setSubstituting(false);
    setAlias('');
  };

  return (
    <div class="ssml-toolbar" role="group" aria-label="SSML markup">
      <span class="ssml-tool">
        <button type="button" onClick={() => apply((edit) => insertBreak(edit, pause))}>
          Pause
        </button>
        <select aria-label="Pause length" value={pause} onChange={(event) => setPause(event.currentTarget.value)}>
          {PAUSES.map((time) => (
            <option key={time} value={time}>
              {time}
            </option>
          ))}
        </select>
      </span>
      <button type="button" onClick={() => apply((edit) => wrapSelection(edit, 'emphasis', { level: 'strong' }))}>
        Emphasis
      </button>
      <span class="ssml-tool">
        <button type="button" onClick={() => apply((edit) => wrapSelection(edit, 'say-as', { 'interpret-as': reading }))}>
          Say as
        </button>
        <select aria-label="Say as" value={reading} onChange={(event) => setReading(event.currentTarget.value)}>
          {READINGS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </span>
      <button type="button" aria-expanded={substituting} onClick={() => setSubstituting(!substituting)}>
        Substitute…
      </button>
      <button type="button" onClick={() => apply((edit) => wrapSelection(edit, 'prosody', { rate: 'slow' }))}>
        Slower
      </button>
      <button type="button" onClick={() => apply((edit) => wrapSelection(edit, 'prosody', { pitch: '+15%' }))}>
        Higher
      </button>
      {substituting ? (
        <span class="ssml-tool">
          <input
            aria-label="Spoken as"
            placeholder="What to say instead of the selection"
            value={alias}
            onInput={(event) => setAlias(event.currentTarget.value)}
          />
          <button type="button" onClick={substitute} disabled={alias.trim() === ''}>
            Insert substitute
          </button>
        </span>
      ) : null}
    </div>
  );
}

import { Field } from '../../components/field.js';
import { addLine, changeLine, moveLine, removeLine, type Script } from './script-edits.js';

interface LinesEditorProps {
  script: Script;
  onChange: (change: (script: Script) => Script) => void;
}

/** The script's lines in order: who says each and what, moved up and down, added and removed. */
export function LinesEditor({ script, onChange }: LinesEditorProps) {
  const last = script.lines.length - 1;
  return (
    <section class="panel" aria-labelledby="project-lines-title">
      <h2 id="project-lines-title">Script</h2>
      {script.lines.length === 0 ? <p class="hint">No lines yet. Each line is spoken by one speaker, in the order shown.</p> : null}
      <ol class="project-lines">
        {script.lines.map((line, index) => (
          <li key={index} aria-label={`Line ${index + 1}`} class="project-line">
            <Field label="Speaker">
              {(id) => (
                <select
                  id={id}
                  value={line.speaker}
                  onChange={(event) => {
                    const speaker = event.currentTarget.value;
                    onChange((before) => changeLine(before, index, { speaker }));
                  }}
                >
                  {script.speakers.map((speaker) => (
                    <option key={speaker.name} value={speaker.name}>
                      {speaker.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Text" class="project-line-text">
              {(id) => (
                <textarea
                  id={id}
                  rows={2}
                  value={line.text}
                  onInput={(event) => {
                    const text = event.currentTarget.value;
                    onChange((before) => changeLine(before, index, { text }));
                  }}
                />
              )}
            </Field>
            <div class="row project-line-actions">
              <button type="button" disabled={index === 0} onClick={() => onChange((before) => moveLine(before, index, -1))}>
                Move up
              </button>
              <button type="button" disabled={index === last} onClick={() => onChange((before) => moveLine(before, index, 1))}>
                Move down
              </button>
              <button type="button" onClick={() => onChange((before) => removeLine(before, index))}>
                Remove line
              </button>
            </div>
          </li>
        ))}
      </ol>
      <div class="row">
        <button type="button" disabled={script.speakers.length === 0} onClick={() => onChange(addLine)}>
          Add line
        </button>
        {script.speakers.length === 0 ? <span class="hint">Add a speaker first.</span> : null}
      </div>
    </section>
  );
}

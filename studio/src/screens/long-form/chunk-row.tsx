import { useEffect, useId, useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api.js';
import { Field } from '../../components/field.js';
import { ErrorNote } from '../../components/notice.js';
import { statusWords } from '../../components/task-words.js';
import { useTask } from '../../components/use-task.js';
import { optionalNumber } from './script.js';
import { chunkAudioUrl, type Chunk } from './use-long-form-task.js';
import { voiceName } from './voice-select.js';
import { standInWords } from './words.js';

interface ChunkRowProps {
  taskId: string;
  chunk: Chunk;
  voices: Schemas['Voice'][];
  /** A new take was accepted: its job id, so the job's events find the chunk. */
  onRegenerated: (jobId: string, index: number) => void;
  onSelected: (chunk: Chunk) => void;
}

const seconds = (value: number | null) => (value === null ? '' : `${value.toFixed(2)} s`);

/** One chunk, shown as a sentence: its state, its selected take to play, the choice between takes, and a new take. */
export function ChunkRow({ taskId, chunk, voices, onRegenerated, onSelected }: ChunkRowProps) {
  const number = chunk.index + 1;
  const name = `Sentence ${number}`;
  const standIn = standInWords(chunk, voices);
  const ids = { text: useId(), seed: useId() };
  const [text, setText] = useState(chunk.text);
  const [seed, setSeed] = useState('');
  const { busy, error, run } = useTask();
  // A new take with new text replaces what the field showed.
  useEffect(() => setText(chunk.text), [chunk.text]);

  const regenerate = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const changed = text.trim() && text.trim() !== chunk.text ? { text: text.trim() } : {};
      const chosenSeed = optionalNumber(seed);
      const body = { task_id: taskId, index: chunk.index, ...changed, ...(chosenSeed === undefined ? {} : { seed: chosenSeed }) };
      const accepted = await ok(api.POST('/api/generate/regenerate-chunk', { body }));
      onRegenerated(accepted.job_id, accepted.index);
    });
  };
  const select = (take: number) =>
    void run(async () => {
      const path = { task_id: taskId, index: chunk.index };
      onSelected(await ok(api.POST('/api/tasks/{task_id}/chunks/{index}/select', { params: { path }, body: { take } })));
    });

  return (
    <li class="chunk" aria-label={name} data-state={chunk.state}>
      <div class="chunk-head">
        <strong>{name}</strong>
        {chunk.speaker && chunk.speaker !== voiceName(voices, chunk.voice_id) ? <strong class="chunk-speaker">{chunk.speaker}</strong> : null}
        <span>{voiceName(voices, chunk.voice_id)}</span>
        <span>{chunk.language}</span>
        {standIn ? <span class="chunk-stand-in">{standIn}</span> : null}
        <span class="chunk-state" data-state={chunk.state}>
          {statusWords(chunk.state)}
        </span>
        <span>{seconds(chunk.duration)}</span>
      </div>
      <p class="chunk-text">{chunk.text}</p>
      {chunk.error ? <p class="error">{chunk.error.message}</p> : null}
      <div class="row">
        {chunk.state === 'completed' ? <audio controls preload="none" src={chunkAudioUrl(taskId, chunk)} aria-label={`Audio of sentence ${number}`} /> : null}
        <Field label={`Take of sentence ${number}`}>
          {(id) => (
            <select id={id} value={String(chunk.selected_take)} disabled={busy} onChange={(event) => select(Number(event.currentTarget.value))}>
              {chunk.takes.map((take) => (
                <option key={take.take} value={String(take.take)} disabled={take.take !== chunk.selected_take && take.state !== 'completed'}>
                  Take {take.take} · {statusWords(take.state)} {seconds(take.duration)}
                  {take.text === chunk.text ? '' : ` · “${take.text}”`}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <details>
        <summary>Regenerate sentence {number}…</summary>
        <form class="panel" onSubmit={regenerate} aria-label={`New take of sentence ${number}`}>
          <label for={ids.text}>
            Text of sentence {number}
            <textarea id={ids.text} rows={2} value={text} onInput={(event) => setText(event.currentTarget.value)} />
          </label>
          <div class="row">
            <label for={ids.seed}>
              Seed of sentence {number}
              <input id={ids.seed} type="number" min={0} step={1} placeholder="random" value={seed} onInput={(event) => setSeed(event.currentTarget.value)} />
            </label>
            <button type="submit" disabled={busy}>
              Regenerate sentence {number}
            </button>
          </div>
        </form>
      </details>
      <ErrorNote error={error} />
    </li>
  );
}

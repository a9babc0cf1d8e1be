import { useState } from 'preact/hooks';
import { api, ok } from '../../api.js';
import { JobProgress } from '../../components/job-progress.js';
import { ErrorNote, Warnings } from '../../components/notice.js';
import { useTask } from '../../components/use-task.js';
import { hrefOf } from '../../routes.js';
import { Field } from '../../components/field.js';
import { designOf, MeasuredFacts, measuredOf, UnderstoodAttributes } from '../voices/design-attributes.js';
import { QualityFacts } from '../voices/quality.js';
import { usePreviewPlayer } from '../voices/use-preview-player.js';
import { languageName, type Voice } from '../voices/voice-text.js';

/**
 * A designed voice as the service stored it: the attributes it read in the description, what was
 * measured of the result, a preview, and its name and description to change.
 */
export function DesignedVoice({ voice, onChanged }: { voice: Voice; onChanged: (voice: Voice) => void }) {
  const design = designOf(voice.settings);
  const player = usePreviewPlayer();
  const rename = useTask();
  const [name, setName] = useState(voice.name);
  const [description, setDescription] = useState(voice.description ?? '');
  const [saved, setSaved] = useState(false);
  const playing = player.playing?.voiceId === voice.id ? player.playing : undefined;

  const save = () =>
    rename.run(async () => {
      setSaved(false);
      const body = { name: name.trim(), description: description.trim() || null };
      onChanged(await ok(api.PUT('/api/voices/{id}', { params: { path: { id: voice.id } }, body })));
      setSaved(true);
    });

  return (
    <section class="panel designed-voice" aria-labelledby="designed-voice-name">
      <h2 id="designed-voice-name">{voice.name}</h2>
      <p class="hint">
        A design speaking {languageName(voice.language)}
        {design?.baseVoice ? `, made from ${design.baseVoice}` : ''} · <code>{voice.id}</code>
      </p>
      {design ? <UnderstoodAttributes understood={design.understood} ignored={design.ignored} caption="What the description was read as" /> : null}
      <MeasuredFacts measured={measuredOf(voice.settings.measured)} />
      <QualityFacts measures={voice} />
      <Warnings warnings={voice.warnings.map((warning) => warning.message)} />

      <div class="row">
        <button type="button" disabled={player.loadingId !== undefined} onClick={() => void player.play(voice)}>
          Preview the voice
        </button>
        <a href={hrefOf('speak', { voice: voice.id })}>Speak with this voice</a>
        <a href={hrefOf('voices')}>All voices</a>
      </div>
      {player.loadingId ? <JobProgress label="Making the preview" job={player.job} /> : null}
      <ErrorNote error={player.failure?.message} />
      {playing ? (
        <div>
          <audio controls autoPlay src={playing.src} aria-label={`Preview of ${voice.name}`} />
        </div>
      ) : null}

      <form
        class="design-rename"
        aria-label={`Name and describe ${voice.name}`}
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <Field label="Name">{(id) => <input id={id} value={name} required maxLength={100} onInput={(event) => setName(event.currentTarget.value)} />}</Field>
        <Field label="Description">
          {(id) => <textarea id={id} class="short" value={description} onInput={(event) => setDescription(event.currentTarget.value)} />}
        </Field>
        <div class="row">
          <button type="submit" disabled={rename.busy}>
            Save name and description
          </button>
          {saved ? <span role="status">Saved.</span> : null}
        </div>
        <ErrorNote error={rename.error} />
      </form>
    </section>
  );
}

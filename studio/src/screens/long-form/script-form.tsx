import { useMemo, useState } from 'preact/hooks';
import type { Schemas } from '../../api.js';
import { Field } from '../../components/field.js';
import { ErrorNote } from '../../components/notice.js';
import { useTask } from '../../components/use-task.js';
import { ForDevelopers } from '../../components/for-developers.js';
import { languageList, optionalNumber, PLAN_WORDS, ROUTE_NAMES, speakersOf, startLongForm, type Plan } from './script.js';
import { VoiceSelect } from './voice-select.js';
import { ChunkOptionFields, NO_OPTIONS } from './chunk-option-fields.js';

type Voice = Schemas['Voice'];

const EXAMPLE = 'Ada: Welcome back to the show. Today we talk about sound.\nBen: Thanks, Ada. Let us begin with a short story.';

/**
 * The script and how it is spoken. A script whose first line is `Name: text` is a dialogue: each
 * speaker gets a voice (multivoice route). Prose is spoken by one voice, in one language, or with
 * the language of each sentence detected (multilang route).
 */
export function ScriptForm({ voices, onStarted }: { voices: Voice[]; onStarted: (taskId: string) => void }) {
  const [script, setScript] = useState('');
  const [asDialogue, setAsDialogue] = useState(true);
  const [cast, setCast] = useState<Record<string, string>>({});
  const [voiceId, setVoiceId] = useState('');
  const [language, setLanguage] = useState('');
  const [detect, setDetect] = useState(false);
  const [languages, setLanguages] = useState('');
  const [options, setOptions] = useState(NO_OPTIONS);
  const { busy, error, run } = useTask();

  const speakers = useMemo(() => speakersOf(script), [script]);
  const dialogue = asDialogue && speakers.length > 0;
  const voice = voices.find((candidate) => candidate.id === voiceId);
  const spokenLanguage = language && voice?.languages.includes(language) ? language : (voice?.language ?? '');

  const plan: Plan | undefined = dialogue
    ? speakers.every((name) => cast[name])
      ? { route: 'dialogue', script, voices: Object.fromEntries(speakers.map((name) => [name, cast[name]!])) }
      : undefined
    : voice && script.trim()
      ? detect
        ? { route: 'languages', text: script, voiceId: voice.id, languages: languageList(languages) }
        : { route: 'single', text: script, voiceId: voice.id, language: spokenLanguage }
      : undefined;

  const submit = (event: Event) => {
    event.preventDefault();
    if (!plan) return;
    void run(async () => {
      const accepted = await startLongForm(plan, {
        speed: optionalNumber(options.speed),
        seed: optionalNumber(options.seed),
        max_chars: optionalNumber(options.maxChars),
      });
      onStarted(accepted.task_id);
    });
  };

  return (
    <form class="panel long-form-script" onSubmit={submit} aria-label="New long-form text">
      <label for="lf-script">
        Script
        <textarea id="lf-script" value={script} placeholder={EXAMPLE} rows={8} onInput={(event) => setScript(event.currentTarget.value)} />
      </label>
      <p class="hint">
        Each sentence is spoken on its own, so one can be redone without the rest. For a dialogue start lines with <code>Name:</code>; a line without a name
        continues the speaker before it, blank lines and <code>#</code> lines are skipped.
      </p>
      {speakers.length > 0 ? (
        <label class="inline">
          <input type="checkbox" checked={asDialogue} onChange={(event) => setAsDialogue(event.currentTarget.checked)} />
          Read “Name:” lines as speakers ({speakers.length} found)
        </label>
      ) : null}
      {dialogue ? (
        <fieldset key="cast" class="row">
          <legend>Voice of each speaker (each speaks its voice’s language)</legend>
          {speakers.map((name) => (
            <VoiceSelect key={name} label={`Voice for ${name}`} voices={voices} value={cast[name] ?? ''} onChange={(id) => setCast({ ...cast, [name]: id })} />
          ))}
        </fieldset>
      ) : (
        <div key="voice" class="row">
          <VoiceSelect label="Voice" voices={voices} value={voiceId} onChange={setVoiceId} />
          {detect ? (
            <label key="languages" for="lf-languages">
              Languages to choose from (optional)
              <input id="lf-languages" value={languages} placeholder="en, de, fr" onInput={(event) => setLanguages(event.currentTarget.value)} />
            </label>
          ) : (
            <Field key="language" label="Language">
              {(id) => (
                <select id={id} value={spokenLanguage} onChange={(event) => setLanguage(event.currentTarget.value)} disabled={!voice}>
                  {(voice?.languages ?? []).map((tag) => (
                    <option key={tag} value={tag}>
                      {tag}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          )}
          <label key="detect" class="inline">
            <input type="checkbox" checked={detect} onChange={(event) => setDetect(event.currentTarget.checked)} />
            Several languages: detect each sentence’s language
          </label>
        </div>
      )}
      <ChunkOptionFields value={options} onChange={setOptions} />
      <p class="hint" aria-live="polite">
        {plan ? PLAN_WORDS[plan.route] : dialogue ? 'Choose a voice for every speaker.' : 'Write a script and choose a voice.'}
      </p>
      <div class="row">
        <button type="submit" class="primary" disabled={!plan || busy}>
          {busy ? 'Starting…' : 'Generate'}
        </button>
      </div>
      <ErrorNote error={error} />
      <ForDevelopers>
        <p>
          {plan ? <code>{ROUTE_NAMES[plan.route]}</code> : 'The route depends on the script: '}
          {plan ? null : Object.values(ROUTE_NAMES).map((route) => <code key={route}>{route} </code>)}; progress arrives as <code>job.progress</code> events on{' '}
          <code>/ws</code> (stage <code>chunk_completed</code> with <code>chunk_index</code> as each sentence is ready).
        </p>
      </ForDevelopers>
    </form>
  );
}

import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ok, taskAudioUrl, type Schemas } from '../api.js';
import { ErrorNote } from '../components/notice.js';
import { JobProgress } from '../components/job-progress.js';
import { useTask } from '../components/use-task.js';
import { OutputOptions, streams, type OutputChoice } from './speak/output-options.js';
import { primaryOf, tagFor, VoicePicker } from './speak/voice-picker.js';
import { RecentTasks } from './speak/recent-tasks.js';
import { browserPlays, fileNameOf } from './speak/recent.js';
import { useGeneration } from './speak/use-generation.js';
import { characterCount, useDraft, useTextLimit } from './speak/draft.js';
import { textLanguage } from './speak/text-language.js';
import './speak/speak.css';

type Voice = Schemas['Voice'];

const PAGE = 500;

async function loadVoices(): Promise<Voice[]> {
  const voices: Voice[] = [];
  for (let offset = 0; ; offset += PAGE) {
    // Clearest first: the service's order is the one to choose a voice by.
    const page = await ok(api.GET('/api/voices', { params: { query: { sort: 'quality', limit: PAGE, offset } } }));
    voices.push(...page.voices);
    if (voices.length >= page.total || page.voices.length === 0) return voices;
  }
}

/**
 * The voice to start with when no link names one and none was picked: the clearest (the first of the
 * service's order) that speaks the text's language, else the browser's, else the clearest of all.
 */
function firstChoice(voices: readonly Voice[], text: string): Voice | undefined {
  const usable = voices.filter((voice) => voice.available);
  const spoken = new Set(usable.flatMap((voice) => [voice.language, ...voice.languages].map(primaryOf)));
  const wanted = [textLanguage(text, spoken), primaryOf(navigator.language || 'en')];
  for (const primary of wanted) {
    const voice = primary && usable.find((candidate) => primaryOf(candidate.language) === primary);
    if (voice) return voice;
  }
  return usable[0];
}

/** How long typing must pause before the voice follows the text's language. */
const LANGUAGE_PAUSE_MS = 400;

const numbers = new Intl.NumberFormat('en');

/** Text to speech: pick a voice, type, generate, listen while it streams, download; this session's generations below. */
export function SpeakScreen({ params }: { params: URLSearchParams }) {
  const wanted = params.get('voice');
  const [voices, setVoices] = useState<Voice[]>([]);
  const [voiceId, setVoiceId] = useState('');
  const [filter, setFilter] = useState('');
  const [language, setLanguage] = useState('');
  const [text, setText] = useDraft();
  const limit = useTextLimit();
  /** Set once a voice is chosen by hand or by a link: the text's language no longer changes it. */
  const picked = useRef(false);
  const [output, setOutput] = useState<OutputChoice>({ format: 'mp3', speed: 1, stream: true });
  const loading = useTask();
  const audio = useRef<HTMLAudioElement>(null);
  const run = useGeneration(audio);

  /** A voice, speaking the filtered language when it can, else its own. */
  const choose = (voice: Voice | undefined, primary = filter) => {
    setVoiceId(voice?.id ?? '');
    setLanguage((voice && primary ? tagFor(voice, primary) : undefined) ?? voice?.language ?? '');
  };
  /** Narrowing to a language the chosen voice does not speak picks the first voice that does. */
  const changeFilter = (primary: string) => {
    setFilter(primary);
    const current = voices.find((candidate) => candidate.id === voiceId);
    if (primary === '' || !current) return;
    choose(tagFor(current, primary) ? current : voices.find((candidate) => candidate.available && tagFor(candidate, primary)), primary);
  };

  useEffect(() => {
    void loading.run(async () => setVoices(await loadVoices()));
  }, []);
  // The voice a link names (#/speak?voice=…), also when the link is followed while the screen is open.
  useEffect(() => {
    const linked = voices.find((candidate) => candidate.id === wanted);
    picked.current ||= linked !== undefined;
    if (linked) choose(linked);
    else if (voiceId === '') choose(firstChoice(voices, text));
  }, [voices, wanted]);
  useEffect(() => {
    if (picked.current || filter !== '' || voices.length === 0) return;
    const timer = setTimeout(() => {
      const clearest = firstChoice(voices, text);
      if (clearest && clearest.id !== voiceId) choose(clearest);
    }, LANGUAGE_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const voice = voices.find((candidate) => candidate.id === voiceId);
  const submit = (event: Event) => {
    event.preventDefault();
    if (!voice || text.trim() === '' || run.active) return;
    void run.generate(voice, { voice_id: voice.id, text, language, format: output.format, speed: output.speed }, streams(output));
  };
  const task = run.currentTask;
  const job = task ? run.jobs[task.taskId] : undefined;

  return (
    <div class="speak">
      <ErrorNote error={loading.error} />
      <form onSubmit={submit} aria-label="Generate speech">
        <label for="speak-text">Text</label>
        <textarea id="speak-text" value={text} onInput={(event) => setText(event.currentTarget.value)} placeholder="Type what the voice should say" />
        <p class={limit !== undefined && characterCount(text) > limit ? 'error' : 'hint'} aria-live="polite">
          {limit === undefined
            ? `${numbers.format(characterCount(text))} characters`
            : `${numbers.format(characterCount(text))} / ${numbers.format(limit)} characters`}
        </p>
        <VoicePicker
          voices={voices}
          voiceId={voiceId}
          onVoice={(id) => {
            picked.current = true;
            choose(voices.find((candidate) => candidate.id === id));
          }}
          filter={filter}
          onFilter={changeFilter}
          language={language}
          onLanguage={setLanguage}
        />
        <OutputOptions choice={output} onChange={setOutput} />
        <div class="row">
          <button type="submit" class="primary" disabled={!voice || text.trim() === '' || run.active}>
            Generate
          </button>
          <button type="button" onClick={() => void run.cancel()} disabled={!run.active || run.cancelling.busy}>
            Cancel
          </button>
        </div>
      </form>
      <ErrorNote error={run.generation.error ?? run.cancelling.error} />
      <section class="panel" aria-label="Result" hidden={!run.current}>
        <JobProgress label="Generation progress" job={job} />
        {task && !job ? (
          <p class="hint" aria-live="polite">
            {run.status}
          </p>
        ) : null}
        {task?.error ? <p class="error">{task.error}</p> : null}
        <audio ref={audio} controls aria-label="Generated speech" hidden={!!task && !browserPlays(task.format)} />
        {task && !browserPlays(task.format) ? <p class="hint">Browsers do not play {task.format.toUpperCase()}: download the file to use it.</p> : null}
        {task && task.status === 'completed' ? (
          <div class="row">
            <a
              class="speak-download"
              href={taskAudioUrl(task.taskId)}
              download={fileNameOf(task)}
              aria-label={`Download ${task.format.toUpperCase()}: ${fileNameOf(task)}`}
            >
              Download {task.format.toUpperCase()}
            </a>
            {task.duration !== null ? <span class="hint">{task.duration.toFixed(1)} s</span> : null}
          </div>
        ) : null}
      </section>
      <RecentTasks tasks={run.recent.tasks} jobs={run.jobs} onClear={run.recent.clear} />
    </div>
  );
}

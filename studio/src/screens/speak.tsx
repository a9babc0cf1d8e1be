import { useEffect, useRef, useState } from 'preact/hooks';
import type { Schemas } from '../api.js';
import { ErrorNote } from '../components/notice.js';
import { useTask } from '../components/use-task.js';
import { OutputOptions, streams, type OutputChoice } from './speak/output-options.js';
import { primaryOf, tagFor, VoicePicker } from './speak/voice-picker.js';
import { RecentTasks } from './speak/recent-tasks.js';
import { SpeakResult } from './speak/result.js';
import { useGeneration } from './speak/use-generation.js';
import { characterCount, useDraft, useTextLimit } from './speak/draft.js';
import { textLanguage } from './speak/text-language.js';
import { loadVoices } from './speak/voice-list.js';
import { DictionaryPicker } from './speak/dictionary-picker.js';
import { SsmlToolbar } from '../components/ssml-toolbar.js';
import './speak/speak.css';

type Voice = Schemas['Voice'];

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
  const [dictionaryIds, setDictionaryIds] = useState<string[]>([]);
  const audio = useRef<HTMLAudioElement>(null);
  const textBox = useRef<HTMLTextAreaElement>(null);
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
    const pronunciations = dictionaryIds.length > 0 ? { pronunciation_ids: dictionaryIds } : {};
    void run.generate(voice, { voice_id: voice.id, text, language, format: output.format, speed: output.speed, ...pronunciations }, streams(output));
  };

  return (
    <div class="speak">
      <ErrorNote error={loading.error} />
      <form onSubmit={submit} aria-label="Generate speech">
        <label for="speak-text">Text</label>
        <SsmlToolbar textarea={textBox} onText={setText} />
        <textarea
          ref={textBox}
          id="speak-text"
          value={text}
          onInput={(event) => setText(event.currentTarget.value)}
          placeholder="Type what the voice should say"
        />
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
        <DictionaryPicker chosen={dictionaryIds} onChange={setDictionaryIds} />
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
      <SpeakResult run={run} audio={audio} />
      <RecentTasks tasks={run.recent.tasks} jobs={run.jobs} onClear={run.recent.clear} />
    </div>
  );
}

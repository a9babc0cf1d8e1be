import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createBuiltinSynthesizer, probeInstalled, readWavOutput, type BuiltinOptions, type PieceJob } from './builtin-common.js';
import { FESTIVAL_VOICES, installedVoices } from './builtin-voices.js';
import { changePitchTempo } from '../audio/effects.js';
import type { EngineCapabilities, EngineDescriptor, SynthesisResult, Synthesizer, VoiceInfo, WordTiming } from './types.js';
import { asciiPlainText } from './builtin-text.js';
import { FestivalPool, FestivalProcess, schemeString } from './festival-session.js';
import { voicesOnPath } from './festival-voice-path.js';
import { EngineError } from '../errors.js';
import { cmuPhones, type CmuPhone } from '../text/phonemes/cmu.js';

/**
 * Festival, kept running: one `festival` process per voice in use (festival-session.ts), each
 * told once how to synthesize a text file utterance by utterance like text2wave does while writing
 * each word's start and end, so timings cost nothing extra; then one command per piece.
 */

const PROGRAM = 'festival';
/** Festival's voices here are English: Latin letters, folded to ASCII (asciiPlainText). */
const LATIN = ['Latin'];
/** Festival processes kept running at most, one per voice (TIMBRE_FESTIVAL_PROCESSES). */
export const DEFAULT_FESTIVAL_PROCESSES = 2;

/**
 * The word a phoneme piece is spoken as: its entry in the lexicon's addenda holds the request's
 * phones, and is replaced by the next phoneme piece's. No English word, so no text meets it.
 */
const PHONEMES_WORD = 'timbrephonemes';

/**
 * Defined once per process. Festival cuts a text into utterances at sentence ends; one made of
 * punctuation alone (`"`, or the `!` after `0"?  !`) has no segments, and the diphone voices'
 * waveform synthesis (UniSyn) crashed the process on it (SIGSEGV). So Wave_Synth gives such an
 * utterance an empty wave instead, t_collect leaves empty waves out, and a piece with nothing to
 * say writes no WAV at all. `(t_start VOICE)` selects the voice and keeps what speed and pitch
 * change as the voice left it; `(t_piece IN.txt OUT.wav OUT.tsv SPEED PITCH)` sets both from those
 * values (so no piece inherits another's) and speaks the file. HTS voices ignore Duration_Stretch
 * and take hts_engine's `-r` rate instead; diphone voices set their own stretch, which speed scales.
 * Pitch scales the target F0 mean and spread of the intonation models (int_lr_params,
 * int_simple_params) of diphone and MBROLA voices; hts_engine here takes no pitch option, so HTS
 * voices are shifted afterwards (see renderPiece).
 */
const TIMINGS_SCRIPT = `
(if (not (boundp 't_wave_synth)) (set! t_wave_synth Wave_Synth))
(define (Wave_Synth utt)
  (if (utt.relation.items utt 'Segment)
      (t_wave_synth utt)
      (let ((silence (wave.resize nil 0 1)))
        (wave.set_sample_rate silence 16000)
        (utt.relation.create utt 'Wave)
        (item.set_feat (utt.relation.append utt 'Wave) "wave" silence)
        utt)))
(define (t_scaled params factor)
  (mapcar
   (lambda (p) (if (member (car p) '(target_f0_mean target_f0_std f0_mean f0_std)) (list (car p) (* factor (car (cdr p)))) p))
   params))
(define (t_seconds w) (/ (get_param 'num_samples (wave.info w) 0) (get_param 'sample_rate (wave.info w) 1)))
(define (t_collect utt)
  (if (> (get_param 'num_samples (wave.info (utt.wave utt)) 0) 0) (t_keep utt))
  utt)
(define (t_keep utt)
  (mapcar
   (lambda (w)
     (format t_fd "%f\\t%f\\t%s\\n"
             (+ t_offset (item.feat w "R:SylStructure.daughter1.daughter1.segment_start"))
             (+ t_offset (item.feat w "R:SylStructure.daughtern.daughtern.end"))
             (item.name w)))
   (utt.relation.items utt 'Word))
  (set! t_offset (+ t_offset (t_seconds (utt.wave utt))))
  (if t_wave (wave.append t_wave (utt.wave utt)) (set! t_wave (utt.wave utt))))
(define (t_start voice)
  (eval (list (intern (string-append "voice_" voice))))
  (set! t_hts (string-matches voice ".*_hts"))
  (set! t_lr (if (boundp 'int_lr_params) int_lr_params nil))
  (set! t_simple (if (boundp 'int_simple_params) int_simple_params nil))
  (set! t_hts_params (if (boundp 'hts_engine_params) hts_engine_params nil))
  (set! t_stretch (or (Parameter.get 'Duration_Stretch) 1))
  (set! t_fd nil)
  (set! tts_hooks (list utt.synth t_collect)))
(define (t_piece in wav tsv speed pitch)
  (if t_fd (fclose t_fd))
  (set! t_fd nil)
  (if t_lr (set! int_lr_params (t_scaled t_lr pitch)))
  (if t_simple (set! int_simple_params (t_scaled t_simple pitch)))
  (if t_hts
      (set! hts_engine_params (append t_hts_params (list (list "-r" speed))))
      (Parameter.set 'Duration_Stretch (/ t_stretch speed)))
  (set! t_offset 0.0)
  (set! t_wave nil)
  (set! t_fd (fopen tsv "w"))
  (tts_file in nil)
  (fclose t_fd)
  (set! t_fd nil)
  (if t_wave (wave.save t_wave wav 'riff)))
(define (t_radio)
  (equal? 'radio (car (cdr (assoc 'name (PhoneSet.description '(name)))))))
(define (t_phones_piece phones in_phones in_text wav tsv speed pitch)
  (if (t_radio)
      (begin
        (lex.add.entry (list "${PHONEMES_WORD}" nil (lex.syllabify.phstress phones)))
        (t_piece in_phones wav tsv speed pitch))
      (t_piece in_text wav tsv speed pitch)))
`;

/** The command that speaks one piece; numbers as plain decimals, which SIOD reads. */
export function pieceCommand(files: { txt: string; wav: string; tsv: string }, speed: number, pitch: number): string {
  return `(t_piece ${schemeString(files.txt)} ${schemeString(files.wav)} ${schemeString(files.tsv)} ${decimal(speed)} ${decimal(pitch)})`;
}

/**
 * The command that speaks phones (CMU, stress on the vowels) with a voice of the `radio` phone set
 * (the US voices), and the written word with any other (the British mrpa voices): `(t ax0 m ey1 t ow0)`.
 */
export function phonesCommand(
  phones: readonly CmuPhone[],
  files: { phones: string; txt: string; wav: string; tsv: string },
  speed: number,
  pitch: number,
): string {
  const stressed = phones.some((phone) => phone.stress !== undefined && phone.stress > 0);
  let first = !stressed;
  const names = phones.map(({ phone, stress }) => {
    if (stress === undefined) return phone;
    const digit = first ? 1 : stress;
    first = false;
    return `${phone}${digit}`;
  });
  const paths = [files.phones, files.txt, files.wav, files.tsv].map(schemeString).join(' ');
  return `(t_phones_piece '(${names.join(' ')}) ${paths} ${decimal(speed)} ${decimal(pitch)})`;
}

function decimal(value: number): string {
  return Number.isFinite(value) ? value.toFixed(6) : '1';
}

const capabilities: EngineCapabilities = {
  engine: 'festival',
  kind: 'synthesizer',
  neural: false,
  languages: [...new Set(Object.values(FESTIVAL_VOICES).map((entry) => entry.language))],
  wordTimings: true,
  phonemeTimings: false,
  referenceAudio: false,
  blendableVoices: false,
  speed: true,
  // IPA as CMU phones (text/phonemes/cmu.ts), a lexicon entry of the piece; British voices say the written word.
  phonemeInput: true,
  // Intonation targets scale that far and still sound like speech.
  pitch: { min: 0.5, max: 3 },
};

async function discoverVoices(): Promise<VoiceInfo[]> {
  return installedVoices('festival', FESTIVAL_VOICES, await voicesOnPath());
}

/** Parses the script's `start end word` lines. */
export function parseWordTimings(tsv: string): WordTiming[] {
  return tsv
    .split('\n')
    .map((line) => line.split('\t'))
    .filter((columns) => columns.length === 3)
    .map(([start = '', end = '', word = '']) => ({ word, start: Number(start), end: Number(end) }));
}

/** Signals of a fault inside festival; a cancellation or a piece timeout kills it with SIGKILL instead. */
const FAULTS = new Set(['SIGSEGV', 'SIGBUS', 'SIGFPE', 'SIGILL', 'SIGABRT']);

/**
 * A festival that faulted on a piece: the pool starts a new one for the next call, and this
 * request is refused as text the voice cannot say (it would crash it again), naming the piece,
 * rather than answered as a server error. Any other error is left as it is.
 */
export function faultOnText(error: unknown, job: Pick<PieceJob, 'voice' | 'text'>): unknown {
  const signal = error instanceof EngineError ? error.details.signal : undefined;
  if (typeof signal !== 'string' || !FAULTS.has(signal)) return error;
  const { id, language } = job.voice;
  return new EngineError(
    'text_not_speakable',
    `Festival crashed (${signal}) on a piece of this text with the voice ${id}; it was restarted, but cannot say this text: reword it or choose another voice`,
    { voice: id, language, signal, piece: job.text.slice(0, 200) },
  );
}

function isHts(voiceName: string): boolean {
  return voiceName.endsWith('_hts');
}

/** A voice's festival: started with the script, the voice selected once. */
export function startFestival(voiceName: string, signal: AbortSignal): Promise<FestivalProcess> {
  return FestivalProcess.start(TIMINGS_SCRIPT, `(t_start ${schemeString(voiceName)})`, signal);
}

export interface FestivalOptions extends BuiltinOptions {
  /** Festival processes kept running at most, one per voice; DEFAULT_FESTIVAL_PROCESSES by default. */
  maxProcesses?: number;
}

export function createFestivalSynthesizer(options: FestivalOptions = {}): Synthesizer {
  const pool = new FestivalPool(startFestival, Math.max(1, options.maxProcesses ?? DEFAULT_FESTIVAL_PROCESSES));

  async function renderPiece(job: PieceJob): Promise<SynthesisResult> {
    const dir = await job.dir();
    const file = (suffix: string) => join(dir, `piece-${job.index}.${suffix}`);
    const files = { txt: file('txt'), wav: file('wav'), tsv: file('tsv') };
    await writeFile(files.txt, job.text);
    const voiceName = job.voice.id.slice('festival:'.length);
    // Phonemes with no sound English has (cmuPhones gives none) leave the written word to say.
    const phones = job.phonemes ? cmuPhones(job.phonemes) : [];
    if (phones.length > 0) await writeFile(file('phones.txt'), PHONEMES_WORD);
    const command =
      phones.length > 0 ? phonesCommand(phones, { ...files, phones: file('phones.txt') }, job.speed, job.pitch) : pieceCommand(files, job.speed, job.pitch);
    await pool.run(voiceName, command, job.signal).catch((error: unknown) => {
      throw faultOnText(error, job);
    });
    // No WAV: festival found nothing to say in the piece (see TIMINGS_SCRIPT).
    if (!existsSync(files.wav)) return { pcm: { samples: new Float32Array(0), sampleRate: job.voice.sampleRate } };
    const spoken = await readWavOutput(files.wav, PROGRAM);
    const shifted = isHts(voiceName) && job.pitch !== 1;
    const pcm = shifted ? await changePitchTempo(spoken, { semitones: 12 * Math.log2(job.pitch), formantPreserve: true, signal: job.signal }) : spoken;
    const words = parseWordTimings(await readFile(files.tsv, 'utf8'));
    return { pcm, words: words.map((timing) => (timing.word === PHONEMES_WORD ? { ...timing, word: job.text.trim() } : timing)) };
  }

  const engine = { capabilities, discoverVoices, scriptsRead: () => LATIN, prepareText: asciiPlainText, renderPiece, dispose: () => pool.dispose() };
  return createBuiltinSynthesizer(engine, options);
}

/** TIMBRE_FESTIVAL_PROCESSES, when it is a positive whole number. */
function processesFromEnvironment(): number | undefined {
  const value = Number(process.env.TIMBRE_FESTIVAL_PROCESSES);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

export const festivalEngine: EngineDescriptor<Synthesizer> = {
  id: 'festival',
  kind: 'synthesizer',
  neural: false,
  probe: async () => probeInstalled([PROGRAM]),
  load: async (settings) => createFestivalSynthesizer({ ...settings, maxProcesses: processesFromEnvironment() }),
};

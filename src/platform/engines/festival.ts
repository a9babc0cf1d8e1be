import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createBuiltinSynthesizer, probeInstalled, readWavOutput, runEngineProgram, type BuiltinOptions, type PieceJob } from './builtin-common.js';
import { FESTIVAL_VOICES, installedVoices } from './builtin-voices.js';
import { changePitchTempo } from '../audio/effects.js';
import type { EngineCapabilities, EngineDescriptor, SynthesisResult, Synthesizer, VoiceInfo, WordTiming } from './types.js';
import { asciiPlainText } from './builtin-text.js';

/**
 * Festival. Instead of text2wave it runs a script that synthesizes utterance by utterance like
 * text2wave does, and also writes each word's start and end, so timings cost nothing extra.
 */

const PROGRAM = 'festival';
/** Festival reports errors only as `SIOD ERROR` on stderr; its exit code stays 0. */
const FESTIVAL_ERROR = /SIOD ERROR/;

/**
 * Arguments: VOICE IN.txt OUT.wav OUT.tsv SPEED PITCH. HTS voices ignore Duration_Stretch and take
 * hts_engine's `-r` rate instead; diphone voices set their own stretch, which speed scales. Pitch
 * scales the target F0 mean and spread of the intonation models (int_lr_params, int_simple_params)
 * of diphone and MBROLA voices; hts_engine here takes no pitch option, so HTS voices are shifted
 * afterwards (see renderPiece).
 */
const TIMINGS_SCRIPT = `
(load (path-append datadir "init.scm"))
(define (argn n) (argn_of argv n))
(define (argn_of l n) (if (eq? n 0) (car l) (argn_of (cdr l) (- n 1))))
(set! t_voice (argn 0))
(set! t_speed (parse-number (argn 4)))
(set! t_pitch (parse-number (argn 5)))
(eval (list (intern (string-append "voice_" t_voice))))
(define (t_scaled params)
  (mapcar
   (lambda (p) (if (member (car p) '(target_f0_mean target_f0_std f0_mean f0_std)) (list (car p) (* t_pitch (car (cdr p)))) p))
   params))
(if (boundp 'int_lr_params) (set! int_lr_params (t_scaled int_lr_params)))
(if (boundp 'int_simple_params) (set! int_simple_params (t_scaled int_simple_params)))
(if (string-matches t_voice ".*_hts")
    (set! hts_engine_params (append hts_engine_params (list (list "-r" t_speed))))
    (Parameter.set 'Duration_Stretch (/ (or (Parameter.get 'Duration_Stretch) 1) t_speed)))
(set! t_offset 0.0)
(set! t_wave nil)
(set! t_fd (fopen (argn 3) "w"))
(define (t_seconds w) (/ (get_param 'num_samples (wave.info w) 0) (get_param 'sample_rate (wave.info w) 1)))
(define (t_collect utt)
  (mapcar
   (lambda (w)
     (format t_fd "%f\\t%f\\t%s\\n"
             (+ t_offset (item.feat w "R:SylStructure.daughter1.daughter1.segment_start"))
             (+ t_offset (item.feat w "R:SylStructure.daughtern.daughtern.end"))
             (item.name w)))
   (utt.relation.items utt 'Word))
  (set! t_offset (+ t_offset (t_seconds (utt.wave utt))))
  (if t_wave (wave.append t_wave (utt.wave utt)) (set! t_wave (utt.wave utt)))
  utt)
(set! tts_hooks (list utt.synth t_collect))
(tts_file (argn 1) nil)
(fclose t_fd)
(wave.save t_wave (argn 2) 'riff)
`;

/**
 * Festival's diphone voices (kal, ked) crash on an utterance with a hundred punctuation marks that
 * stand alone between spaces (`a , b , c …`); attached to the word before them (`a, b, c`) they are
 * read as usual, so they are attached. Festival reads ASCII only (asciiPlainText).
 */
export function festivalText(text: string): string {
  return asciiPlainText(text).replace(/(?<=\S)\s+(\p{P}+)(?=\s|$)/gu, '$1');
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
  // Intonation targets scale that far and still sound like speech.
  pitch: { min: 0.5, max: 3 },
};

/** Parses `(voice_a voice_b …)` as printed by `(print (voice.list))`. */
export function parseVoiceList(output: string): string[] {
  const list = /\(([^()]*)\)/.exec(output)?.[1] ?? '';
  return list.split(/\s+/).filter(Boolean);
}

async function discoverVoices(): Promise<VoiceInfo[]> {
  const { stdout } = await runEngineProgram(PROGRAM, ['-b', '(print (voice.list))'], { signal: AbortSignal.timeout(20_000), failsOn: FESTIVAL_ERROR });
  return installedVoices('festival', FESTIVAL_VOICES, parseVoiceList(stdout.toString('utf8')));
}

/** Parses the script's `start end word` lines. */
export function parseWordTimings(tsv: string): WordTiming[] {
  return tsv
    .split('\n')
    .map((line) => line.split('\t'))
    .filter((columns) => columns.length === 3)
    .map(([start = '', end = '', word = '']) => ({ word, start: Number(start), end: Number(end) }));
}

async function renderPiece(job: PieceJob): Promise<SynthesisResult> {
  const file = (suffix: string) => join(job.dir, `piece-${job.index}.${suffix}`);
  const script = join(job.dir, 'timings.scm');
  await Promise.all([writeFile(script, TIMINGS_SCRIPT), writeFile(file('txt'), job.text)]);
  const voiceName = job.voice.id.slice('festival:'.length);
  const args = ['--script', script, voiceName, file('txt'), file('wav'), file('tsv'), String(job.speed), String(job.pitch)];
  const { stderr } = await runEngineProgram(PROGRAM, args, { signal: job.signal, failsOn: FESTIVAL_ERROR });
  const spoken = await readWavOutput(file('wav'), PROGRAM, stderr);
  const shifted = isHts(voiceName) && job.pitch !== 1;
  const pcm = shifted ? await changePitchTempo(spoken, { semitones: 12 * Math.log2(job.pitch), formantPreserve: true, signal: job.signal }) : spoken;
  return { pcm, words: parseWordTimings(await readFile(file('tsv'), 'utf8')) };
}

function isHts(voiceName: string): boolean {
  return voiceName.endsWith('_hts');
}

export function createFestivalSynthesizer(options: BuiltinOptions = {}): Synthesizer {
  return createBuiltinSynthesizer({ capabilities, discoverVoices, prepareText: festivalText, renderPiece }, options);
}

export const festivalEngine: EngineDescriptor<Synthesizer> = {
  id: 'festival',
  kind: 'synthesizer',
  neural: false,
  probe: async () => probeInstalled([PROGRAM]),
  load: async (settings) => createFestivalSynthesizer(settings),
};

// The SSML section alone: `npm run build:server && node --import tsx bench/ssml.ts` (`npm run bench` runs it among the others).
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { removeDir } from '../test/helpers/timbre.js';
import { median, printTable, round, timed } from './measure.js';
import { startService } from './service.js';
import { LONG_TEXT } from './texts.js';
import { parseWav } from '../src/platform/audio/wav.js';
import { LoudnessEnvelope } from '../src/platform/speech/loudness-envelope.js';
import { estimateWordTimings } from '../src/platform/speech/word-estimate.js';
import { normalizeText } from '../src/platform/text/normalize.js';

/**
 * What markup, dictionaries and word timings cost on top of plain synthesis: the 2,000-character
 * text through `POST /api/generate/preset` as plain text, as SSML, with a 1,000-rule dictionary and
 * with `"with_timestamps": true`, in interleaved rounds, each variant as the median of the rounds'
 * own ratios to the plain request (goal: at most 1.05).
 */

export const SSML_TITLE =
  'SSML, dictionaries and word timings against plain text, 2,000 characters, one request each, interleaved rounds (medians; ratio = variant / plain in the same round; goal ≤ 1.05; markup = the text in <speak> and nothing else; timestamps = the JSON answer with base64 audio; estimate = loudness envelope and word estimate over the answer, as engines without word times pay it; ssml = 3 breaks of 0.25 s, 2 emphasis, 1 say-as; dictionary = 1,000 rules, 3 of them matching)';

const VOICES = ['pico:en-US', 'espeak:en-us', 'rhvoice:slt'];
const ROUNDS = 5;
const DICTIONARY_RULES = 1000;
const VARIANTS = ['plain', 'markup', 'ssml', 'dictionary', 'timestamps'] as const;
type Variant = (typeof VARIANTS)[number];

/** The same text with a few of each kind of markup; the one say-as adds a word or two ("century" → "one hundred years"). */
export const SSML_TEXT = (() => {
  const sentences = LONG_TEXT.match(/[^.!?]+[.!?]+/g) ?? [LONG_TEXT];
  const marked = sentences.map((sentence, index) => (index > 0 && index % 4 === 0 && index <= 12 ? `<break time="250ms"/>${sentence}` : sentence));
  const body = marked
    .join('')
    .replace('century', '<say-as interpret-as="cardinal">100</say-as> years')
    .replace('thunder', '<emphasis>thunder</emphasis>')
    .replace('journal', '<emphasis level="moderate">journal</emphasis>');
  return `<speak>${body}</speak>`;
})();

/** The same text as an SSML document that changes nothing: what parsing and planning cost alone. */
const WRAPPED_TEXT = `<speak>${LONG_TEXT.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</speak>`;

/** 1,000 rules: three for words of the text, the rest for words it never says. */
function dictionaryRules() {
  const matching = [
    { grapheme: 'lighthouse', alias: 'light house' },
    { grapheme: 'keeper', alias: 'keeper' },
    { grapheme: 'harbor', alias: 'harbour' },
  ];
  const others = Array.from({ length: DICTIONARY_RULES - matching.length }, (_, index) => ({ grapheme: `zq${index}x`, alias: `word ${index}` }));
  return [...matching, ...others].map((rule) => ({ ...rule, case_sensitive: false, whole_word: true }));
}

/** One request read to its last byte with node:http (as the service section reads them): its seconds. */
async function post(
  url: string,
  key: string,
  path: string,
  body: object,
  keep = path !== '/api/generate/preset',
): Promise<{ seconds: number; answer: string }> {
  const { value, seconds } = await timed(
    () =>
      new Promise<{ status: number; answer: string }>((resolve, reject) => {
        const sent = request(`${url}${path}`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' } }, (response) => {
          const ok = response.statusCode !== undefined && response.statusCode < 300;
          const kept: Buffer[] = [];
          // An audio answer is counted, not kept; an error or a created resource is read.
          response.on('data', (chunk: Buffer) => (!ok || keep) && kept.push(chunk));
          response.on('error', reject);
          response.on('end', () => resolve({ status: response.statusCode ?? 0, answer: Buffer.concat(kept).toString() }));
        });
        sent.on('error', reject);
        sent.end(JSON.stringify(body));
      }),
  );
  if (value.status >= 300) throw new Error(`${path}: ${value.status} ${value.answer}`);
  return { seconds, answer: value.answer };
}

/**
 * Word times are kept for every synthesis (the variants above all pay for them); what an engine
 * without its own costs is the loudness envelope and the estimate over the whole answer, timed here
 * on the answer's audio as the median of a few runs.
 */
async function estimateSeconds(answer: { answer: string }): Promise<number> {
  const pcm = parseWav(Buffer.from((JSON.parse(answer.answer) as { audio_base64: string }).audio_base64, 'base64'));
  const text = normalizeText(LONG_TEXT, 'en-US');
  const runs: number[] = [];
  for (let pass = 0; pass < ROUNDS; pass++) {
    const { seconds } = await timed(async () => {
      const envelope = new LoudnessEnvelope();
      envelope.add(pcm);
      return estimateWordTimings(text, 'en-US', envelope, { start: 0, end: envelope.seconds });
    });
    runs.push(seconds);
  }
  return median(runs);
}

export async function benchSsml() {
  const { service, key } = await startService();
  try {
    const created = await post(service.url, key, '/api/pronunciations', { name: 'Bench', language: 'en', rules: dictionaryRules() });
    const dictionaryId = (JSON.parse(created.answer) as { id: string }).id;
    const rows = [];
    for (const voiceId of VOICES) {
      const speech = { voice_id: voiceId, language: 'en-US' };
      const variants: Record<Variant, object> = {
        plain: { ...speech, text: LONG_TEXT },
        markup: { ...speech, text: WRAPPED_TEXT },
        ssml: { ...speech, text: SSML_TEXT },
        dictionary: { ...speech, text: LONG_TEXT, pronunciation_ids: [dictionaryId] },
        timestamps: { ...speech, text: LONG_TEXT, with_timestamps: true },
      };
      const runs: Record<Variant, number[]> = { plain: [], markup: [], ssml: [], dictionary: [], timestamps: [] };
      // Warm up: the engine loads in the engine host.
      for (const name of VARIANTS) await post(service.url, key, '/api/generate/preset', variants[name]);
      for (let pass = 0; pass < ROUNDS; pass++)
        for (const name of VARIANTS) runs[name].push((await post(service.url, key, '/api/generate/preset', variants[name])).seconds);
      const ratio = (name: Variant) => round(median(runs[name].map((seconds, index) => seconds / runs.plain[index]!)), 3);
      const estimate = await estimateSeconds(await post(service.url, key, '/api/generate/preset', variants.timestamps, true));
      rows.push({
        voice: voiceId,
        rounds: ROUNDS,
        plain_s: round(median(runs.plain)),
        markup_ratio: ratio('markup'),
        ssml_ratio: ratio('ssml'),
        dictionary_ratio: ratio('dictionary'),
        timestamps_ratio: ratio('timestamps'),
        estimate_ms: round(estimate * 1000, 1),
        estimate_ratio: round((median(runs.plain) + estimate) / median(runs.plain), 3),
      });
    }
    return rows;
  } finally {
    await service.stop();
    await removeDir(service.dataDir);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) printTable(SSML_TITLE, await benchSsml());

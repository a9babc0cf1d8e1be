// `npm run bench`: speed of every installed engine on this machine. Prints tables and writes JSON.
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/platform/config.js';
import { engineDescriptors } from '../src/platform/engines/registry.js';
import type { EngineDescriptor, Recognizer, Synthesizer } from '../src/platform/engines/types.js';
import { benchCloning } from './cloning.js';
import { benchFairness } from './fairness.js';
import { benchHostOverhead } from './host-overhead.js';
import { benchIntelligibility } from './intelligibility.js';
import { benchLongForm } from './long-form.js';
import { printTable } from './measure.js';
import { benchRecognizer, recognitionSet } from './recognizers.js';
import { benchScaleOut, SCALE_OUT_TITLES } from './scale-out.js';
import { benchService } from './service.js';
import { benchSsml, SSML_TITLE } from './ssml.js';
import { benchStartup } from './startup.js';
import { benchSynthesizer } from './synthesizers.js';
import { benchWyoming, WYOMING_TITLE } from './wyoming.js';

const config = loadConfig();

const startup = await benchStartup();
printTable(
  'Start-up of the compiled service (medians; above_node_s = minus `node -e 0` in the same run; restart = synthesis after kill -9 of the engine host minus one with the host warm)',
  startup,
);
const jfk = fileURLToPath(new URL('../../shared/models/pocket-tts/reference/jfk.wav', import.meta.url));
const lj = fileURLToPath(new URL('../../shared/models/pocket-tts/reference/LJ001-0001.wav', import.meta.url));

async function available(kind: 'synthesizer' | 'recognizer') {
  const descriptors = engineDescriptors(config.modelsDir).filter((descriptor) => descriptor.kind === kind);
  const probed = await Promise.all(descriptors.map(async (descriptor) => ({ descriptor, availability: await descriptor.probe() })));
  for (const { descriptor, availability } of probed.filter((entry) => !entry.availability.available)) {
    process.stdout.write(`skipped ${descriptor.id}: ${availability.reason}\n`);
  }
  return probed.filter((entry) => entry.availability.available).map((entry) => entry.descriptor);
}

const synthesizers = (await available('synthesizer')) as EngineDescriptor<Synthesizer>[];
const recognizers = (await available('recognizer')) as EngineDescriptor<Recognizer>[];

const synthesis = [];
for (const descriptor of synthesizers) {
  const figures = await benchSynthesizer(descriptor);
  if (figures) synthesis.push(figures);
}
printTable('Synthesis (rtf = synthesis time / audio time; first_audio_s = first sentence of the long text)', synthesis);

const samples = await recognitionSet(synthesizers, jfk);
const recognition = [];
for (const descriptor of recognizers) recognition.push(...(await benchRecognizer(descriptor, samples)));
printTable('Recognition (word error rate and real-time factor per audio source)', recognition);

const espeak = synthesizers.find((descriptor) => descriptor.id === 'espeak') ?? synthesizers[0];
const overhead = espeak ? await benchHostOverhead(espeak, config.modelsDir) : [];
printTable('Engine host overhead (short sentence, mean of 10)', overhead);

const service = await benchService();
printTable(
  'The service against each voice’s own command line, 2,000 characters, 5 interleaved rounds (medians; ratio = service / bare in the same round; first_byte = first streamed audio byte; share = of the streamed request; stages of the one-piece task in ms)',
  service,
);

const ssml = await benchSsml();
printTable(SSML_TITLE, ssml);

const wyoming = await benchWyoming();
printTable(WYOMING_TITLE, wyoming);

const fairness = await benchFairness();
printTable(
  'A sentence behind a 5,000-character job (the real service; one-sentence requests of the same key and voice, one after another while the long job runs; goals: each within 5 s, the service at most 400 MiB)',
  fairness,
);

const longForm = await benchLongForm(config);
printTable('Long-form generation of 2,000 characters (real path: queue, engine host, files)', longForm);

const scaleOut = await benchScaleOut(config, espeak);
printTable(SCALE_OUT_TITLES.calls, scaleOut.calls);
printTable(SCALE_OUT_TITLES.throughput, scaleOut.throughput);
printTable(SCALE_OUT_TITLES.cost, scaleOut.cost);

const cloning = await benchCloning(config, [jfk, lj]);
printTable(
  'Voice cloning per method and reference clip (similarity by a measure the fit never saw, vs the nearest unconverted preset; fit_similarity by the fitting print; intelligibility = word accuracy on the probe sentences)',
  cloning,
);

const intelligibility = await benchIntelligibility([jfk, lj]);
printTable(
  'Intelligibility: word error rate of the built-in recognizer on four sentences no voice was fitted on, every English preset and the clones of the reference clips (f0 = Praat median pitch of the clone, target_f0 = of the recording)',
  intelligibility,
);

const results = {
  date: new Date().toISOString(),
  node: process.versions.node,
  startup,
  synthesis,
  recognition,
  host_overhead: overhead,
  service,
  ssml,
  wyoming,
  fairness,
  long_form: longForm,
  scale_out: scaleOut,
  cloning,
  intelligibility,
};
const outDir = new URL('./results/', import.meta.url);
await mkdir(outDir, { recursive: true });
await writeFile(new URL('latest.json', outDir), `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(`\nWrote ${fileURLToPath(new URL('latest.json', outDir))}\n`);

// The scale-out section alone: `npm run build:server && node --import tsx bench/scale-out-run.ts`
// (`npm run bench` runs it among the others).
import { loadConfig } from '../src/platform/config.js';
import { engineDescriptors } from '../src/platform/engines/registry.js';
import type { EngineDescriptor, Synthesizer } from '../src/platform/engines/types.js';
import { printTable } from './measure.js';
import { benchScaleOut, SCALE_OUT_TITLES } from './scale-out.js';

const config = loadConfig();
const found = engineDescriptors(config.modelsDir).find((descriptor) => descriptor.id === 'espeak') as EngineDescriptor<Synthesizer> | undefined;
const espeak = found && (await found.probe()).available ? found : undefined;
if (!espeak) process.stdout.write('skipped the per-call figures: espeak is not installed\n');
const scaleOut = await benchScaleOut(config, espeak);
printTable(SCALE_OUT_TITLES.calls, scaleOut.calls);
printTable(SCALE_OUT_TITLES.throughput, scaleOut.throughput);
printTable(SCALE_OUT_TITLES.cost, scaleOut.cost);

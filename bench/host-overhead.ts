import { EngineHost } from '../src/platform/engines/host/supervisor.js';
import type { EngineDescriptor, Synthesizer } from '../src/platform/engines/types.js';
import { round, timed } from './measure.js';
import { englishVoice, job } from './synthesizers.js';
import { SHORT_TEXT } from './texts.js';

const RUNS = 10;

/** Mean seconds of each run, alternating the two so background load hits both alike. */
async function interleavedMeans(first: () => Promise<unknown>, second: () => Promise<unknown>): Promise<[number, number]> {
  await first();
  await second();
  let totals: [number, number] = [0, 0];
  for (let index = 0; index < RUNS; index++) {
    totals = [totals[0] + (await timed(first)).seconds, totals[1] + (await timed(second)).seconds];
  }
  return [totals[0] / RUNS, totals[1] / RUNS];
}

/** The same short synthesis called in-process and through the engine host; the difference is the host's cost. */
export async function benchHostOverhead(descriptor: EngineDescriptor<Synthesizer>, modelsDir: string) {
  const synthesizer = await descriptor.load();
  const voice = (await englishVoice(synthesizer))!.id;
  const request = { text: SHORT_TEXT, voice };
  const host = new EngineHost({
    modelsDir,
    poolSize: 1,
    jobTimeoutMs: 60_000,
    pieceTimeoutSeconds: 120,
    idleUnloadSeconds: 300,
    memoryLimitBytes: 8 * 1024 ** 3,
    cancelGraceMs: 2000,
  });
  try {
    const [direct, viaHost] = await interleavedMeans(
      () => synthesizer.synthesize(request, job()),
      () => host.synthesize(descriptor.id, request),
    );
    return [
      {
        engine: descriptor.id,
        runs: RUNS,
        direct_ms: round(direct * 1000, 1),
        via_host_ms: round(viaHost * 1000, 1),
        overhead_ms: round((viaHost - direct) * 1000, 1),
      },
    ];
  } finally {
    await host.close();
  }
}

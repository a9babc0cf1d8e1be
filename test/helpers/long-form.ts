import { ChunkRepository, LongFormService } from '../../src/features/long-form/index.js';
import type { LongFormDeps } from '../../src/features/long-form/deps.js';
import type { EngineClient } from '../../src/platform/engines/host/calls.js';
import { PICO_EN_US } from './fake-engines.js';
import type { ServiceFixture } from './service-fixture.js';

/** What the long-form unit tests build their service from: the fixture's platform, speaking PICO_EN_US only. */
export function longFormDeps(fixture: ServiceFixture, engines: EngineClient, changes: Partial<LongFormDeps> = {}): LongFormDeps {
  return {
    ...fixture,
    engines,
    chunks: new ChunkRepository(fixture.db, fixture.kept),
    findVoice: async () => PICO_EN_US,
    presets: async () => [PICO_EN_US],
    maxTextChars: 5000,
    ...changes,
  };
}

export const longFormService = (...args: Parameters<typeof longFormDeps>) => new LongFormService(longFormDeps(...args));

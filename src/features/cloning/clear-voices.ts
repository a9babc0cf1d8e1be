import type { Pcm } from '../../platform/audio/pcm.js';
import { ENGINES_BY_CLARITY } from '../../platform/speech/clarity.js';
import { INTELLIGIBILITY_MARGIN, type IntelligibilityCheck } from './intelligibility.js';

/** A voice as the recognizer hears it: its id, its engine and its plain rendering of the probe. */
export interface HeardVoice {
  voice: { id: string; engine: string };
  probe: Pcm;
}

/**
 * The voices worth fitting are those the recognizer understands within the margin of the clearest
 * one (a clone is never clearer than the voice it is made from); all of them without a recognizer.
 * Rates are heard as candidates come up rather than for every voice (each is a recognition of the
 * probe, about 4 s of CPU): a rate is never below 0, so a voice within the margin is clear whatever
 * the others say, and one further than the margin from the clearest heard so far is not. Only a rate
 * in between needs more voices heard, clearest engines first, until it is decided: the same answers
 * as hearing every voice first.
 */
export class ClearVoices<Voice extends HeardVoice> {
  private readonly rates = new Map<Voice, number>();
  private readonly unheard: Voice[];

  constructor(
    private readonly check: IntelligibilityCheck,
    voices: readonly Voice[],
  ) {
    const clarity = (voice: Voice) => {
      const rank = ENGINES_BY_CLARITY.findIndex((engine) => engine === voice.voice.engine);
      return rank < 0 ? ENGINES_BY_CLARITY.length : rank;
    };
    this.unheard = [...voices].sort((a, b) => clarity(a) - clarity(b));
  }

  async isClear(voice: Voice): Promise<boolean> {
    const rate = await this.rate(voice);
    for (;;) {
      if (rate <= INTELLIGIBILITY_MARGIN + 1e-9) return true;
      if (rate > Math.min(...this.rates.values()) + INTELLIGIBILITY_MARGIN + 1e-9) return false;
      const next = this.unheard[0];
      if (!next) return true;
      await this.rate(next);
    }
  }

  private async rate(voice: Voice): Promise<number> {
    const known = this.rates.get(voice);
    if (known !== undefined) return known;
    const rate = await this.check.baseRate({ id: voice.voice.id, probe: voice.probe });
    this.rates.set(voice, rate);
    this.unheard.splice(this.unheard.indexOf(voice), 1);
    return rate;
  }
}

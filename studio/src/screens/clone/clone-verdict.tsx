import type { Schemas } from '../../api.js';
import { hrefOf } from '../../routes.js';

type Voice = Schemas['Voice'];

const percent = (value: number) => `${Math.round(value * 100)} %`;

/** Whether the clone is closer to the sample than the nearest preset left as it is (both by the measure the fit never saw). */
export function verdictOf(voice: Voice): 'closer' | 'not_closer' | 'unmeasured' {
  if (voice.similarity === null || voice.baseline_similarity === null) return 'unmeasured';
  return voice.similarity > voice.baseline_similarity ? 'closer' : 'not_closer';
}

/** The verdict in words when it is no warning. */
export function CloneVerdict({ voice }: { voice: Voice }) {
  const verdict = verdictOf(voice);
  if (verdict === 'not_closer') return null;
  return (
    <p class={verdict === 'closer' ? 'verdict' : 'hint'}>
      {verdict === 'closer'
        ? `The clone is closer to the sample than the nearest ready-made voice (${percent(voice.similarity ?? 0)} against ${percent(voice.baseline_similarity ?? 0)}).`
        : 'Whether the clone is closer to the sample than the nearest ready-made voice could not be measured.'}
    </p>
  );
}

/**
 * A clone that is not closer to the sample than the nearest preset is no real clone of the speaker:
 * said as a warning, with the way to a model that clones from the sample itself (zero-shot) when
 * another method was used.
 */
export function NotCloserWarning({ voice }: { voice: Voice }) {
  if (verdictOf(voice) !== 'not_closer') return null;
  return (
    <li class="verdict-warning">
      This clone is not closer to the sample than the nearest ready-made voice ({percent(voice.similarity ?? 0)} against{' '}
      {percent(voice.baseline_similarity ?? 0)}): it does not really sound like the speaker.
      {voice.clone_method === 'zero_shot' ? null : (
        <>
          {' '}
          To clone for real, install the Pocket TTS or ZipVoice model: <a href={hrefOf('system')}>Models on the System screen</a>.
        </>
      )}
    </li>
  );
}

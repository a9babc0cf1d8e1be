import { languageName } from './voice-text.js';

export interface Understood {
  word: string;
  attribute: string;
  value: string | number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isUnderstood(value: unknown): value is Understood {
  return (
    isRecord(value) &&
    typeof value.word === 'string' &&
    typeof value.attribute === 'string' &&
    (typeof value.value === 'string' || typeof value.value === 'number')
  );
}

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** What a design voice's settings record of its description (`settings.design`). */
export function designOf(settings: Record<string, unknown>): { understood: Understood[]; ignored: string[]; baseVoice?: string } | undefined {
  const design = settings.design;
  if (!isRecord(design)) return undefined;
  const understood = Array.isArray(design.understood) ? design.understood.filter(isUnderstood) : [];
  const ignored = Array.isArray(design.ignored_words) ? design.ignored_words.filter((word): word is string => typeof word === 'string') : [];
  return { understood, ignored, ...(typeof design.base_voice === 'string' ? { baseVoice: design.base_voice } : {}) };
}

export interface Measured {
  f0?: number;
  baseF0?: number;
  rate?: number;
}

/** The pitch and rate measured on a design speaking its test sentence (`settings.measured`). */
export function measuredOf(measured: unknown): Measured {
  if (!isRecord(measured)) return {};
  return {
    f0: numberOrUndefined(measured.f0_median_hz),
    baseF0: numberOrUndefined(measured.base_f0_median_hz),
    rate: numberOrUndefined(measured.articulation_rate),
  };
}

/** Steps are numbers (−2 … +2: pitch, pace, energy, brightness, breathiness); accents are tags. */
function valueText({ attribute, value }: Understood): string {
  if (typeof value === 'number') return `${value > 0 ? '+' : value < 0 ? '−' : ''}${Math.abs(value)} ${Math.abs(value) === 1 ? 'step' : 'steps'}`;
  return attribute === 'accent' ? `${languageName(value)} (${value})` : value;
}

/** The words of a description the service understood, what each set, and the words it ignored. */
export function UnderstoodAttributes({ understood, ignored, caption }: { understood: Understood[]; ignored: string[]; caption: string }) {
  return (
    <div class="understood">
      {understood.length > 0 ? (
        <div class="table-scroll">
          <table>
            <caption>{caption}</caption>
            <thead>
              <tr>
                <th scope="col">Words</th>
                <th scope="col">Attribute</th>
                <th scope="col">Value</th>
              </tr>
            </thead>
            <tbody>
              {understood.map((entry) => (
                <tr key={`${entry.word}-${entry.attribute}`}>
                  <td>“{entry.word}”</td>
                  <td>{entry.attribute}</td>
                  <td>{valueText(entry)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p class="hint">No word of the description set an attribute; the voice is a neutral one.</p>
      )}
      {ignored.length > 0 ? <p class="hint">Words not understood: {ignored.join(', ')}</p> : null}
    </div>
  );
}

export function MeasuredFacts({ measured }: { measured: Measured }) {
  if (measured.f0 === undefined && measured.rate === undefined) return null;
  return (
    <dl class="facts">
      {measured.f0 !== undefined ? (
        <>
          <dt>Median pitch</dt>
          <dd>
            {measured.f0.toFixed(1)} Hz{measured.baseF0 !== undefined ? ` (base voice ${measured.baseF0.toFixed(1)} Hz)` : ''}
          </dd>
        </>
      ) : null}
      {measured.rate !== undefined ? (
        <>
          <dt>Articulation rate</dt>
          <dd>{measured.rate.toFixed(2)} syllables per second</dd>
        </>
      ) : null}
    </dl>
  );
}

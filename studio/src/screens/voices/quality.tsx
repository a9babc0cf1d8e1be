import { percent } from './voice-text.js';

/** The measures a clone or design carries (a voice record and a design's answer both have them). */
export interface Measures {
  intelligibility: number | null;
  baseline_intelligibility: number | null;
  intelligibility_measure: string | null;
  similarity?: number | null;
  baseline_similarity?: number | null;
  similarity_measure?: string | null;
}

export function hasMeasures(measures: Measures): boolean {
  return measures.intelligibility !== null || (measures.similarity ?? null) !== null;
}

/** One line for a voice card: how well it is understood and how close it is to its speaker. */
export function QualitySummary({ measures }: { measures: Measures }) {
  const parts = [
    measures.intelligibility !== null ? `Intelligibility ${percent(measures.intelligibility)}` : undefined,
    typeof measures.similarity === 'number' ? `Similarity ${percent(measures.similarity)}` : undefined,
  ].filter((part) => part !== undefined);
  if (parts.length === 0) return null;
  return <p class="voice-quality">{parts.join(' · ')}</p>;
}

/** Each measure beside the same measure of the voice it was made from, and what measured it. */
export function QualityFacts({ measures }: { measures: Measures }) {
  if (!hasMeasures(measures)) return null;
  const { intelligibility, baseline_intelligibility, intelligibility_measure, similarity, baseline_similarity, similarity_measure } = measures;
  return (
    <dl class="facts">
      {intelligibility !== null ? (
        <>
          <dt>Intelligibility</dt>
          <dd>
            {percent(intelligibility)} of the test words heard right
            {baseline_intelligibility !== null ? ` (its base voice: ${percent(baseline_intelligibility)})` : ''}
            {intelligibility_measure ? <span class="hint"> — {intelligibility_measure}</span> : null}
          </dd>
        </>
      ) : null}
      {typeof similarity === 'number' ? (
        <>
          <dt>Similarity</dt>
          <dd>
            {percent(similarity)} to the recorded speaker
            {typeof baseline_similarity === 'number' ? ` (nearest preset: ${percent(baseline_similarity)})` : ''}
            {similarity_measure ? <span class="hint"> — {similarity_measure}</span> : null}
          </dd>
        </>
      ) : null}
    </dl>
  );
}

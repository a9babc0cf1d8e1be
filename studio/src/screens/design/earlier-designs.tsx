import { hrefOf } from '../../routes.js';
import { designOf } from '../voices/design-attributes.js';
import type { Voice } from '../voices/voice-text.js';

/** The designs already stored, newest first, to look at again or speak with. */
export function EarlierDesigns({ designs, shownId, onShow }: { designs: Voice[]; shownId: string | undefined; onShow: (voice: Voice) => void }) {
  if (designs.length === 0) return null;
  const newestFirst = [...designs].sort((a, b) => b.created_at.localeCompare(a.created_at));
  return (
    <section class="panel earlier-designs" aria-labelledby="earlier-designs-title">
      <h2 id="earlier-designs-title">Your designs</h2>
      <ul>
        {newestFirst.map((voice) => {
          const words = designOf(voice.settings)?.understood.map((entry) => entry.word) ?? [];
          return (
            <li key={voice.id}>
              <span class="design-name">{voice.name}</span>
              {words.length > 0 ? <span class="hint"> — {words.join(', ')}</span> : null}
              <span class="row">
                <button type="button" aria-label={`Show ${voice.name}`} aria-pressed={shownId === voice.id} onClick={() => onShow(voice)}>
                  Show
                </button>
                <a href={hrefOf('speak', { voice: voice.id })} aria-label={`Speak with ${voice.name}`}>
                  Speak
                </a>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

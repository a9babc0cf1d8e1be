import { useEffect, useRef, useState } from 'preact/hooks';
import { api, errorText, ok } from '../../api.js';
import { useJobOfKind } from './use-job-of-kind.js';
import type { Voice } from './voice-text.js';

export interface Playing {
  voiceId: string;
  src: string;
}

/**
 * One sample plays at a time. Every voice has one: the service answers the stored sample, or makes
 * it on this first request (a `preview` job, whose progress shows meanwhile) and keeps it. It is
 * fetched through the client so that a refusal shows the service's own words.
 */
export function usePreviewPlayer() {
  const [playing, setPlaying] = useState<Playing | undefined>();
  const [loadingId, setLoadingId] = useState<string | undefined>();
  const [failure, setFailure] = useState<{ voiceId: string; message: string } | undefined>();
  const tracker = useJobOfKind('preview');
  const blobUrl = useRef<string | undefined>(undefined);

  const show = (next: Playing | undefined, url?: string) => {
    if (blobUrl.current) URL.revokeObjectURL(blobUrl.current);
    blobUrl.current = url;
    setPlaying(next);
  };
  useEffect(() => () => blobUrl.current && URL.revokeObjectURL(blobUrl.current), []);

  const play = async (voice: Voice) => {
    setFailure(undefined);
    setLoadingId(voice.id);
    tracker.start();
    try {
      const audio = await ok(api.GET('/api/voices/{id}/preview', { params: { path: { id: voice.id } }, parseAs: 'blob' }));
      const url = URL.createObjectURL(audio);
      show({ voiceId: voice.id, src: url }, url);
    } catch (error) {
      setFailure({ voiceId: voice.id, message: errorText(error) });
    } finally {
      tracker.stop();
      setLoadingId(undefined);
    }
  };

  return { playing, loadingId, job: tracker.job, failure, play, stop: () => show(undefined) };
}

export type PreviewPlayer = ReturnType<typeof usePreviewPlayer>;

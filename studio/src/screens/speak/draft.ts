import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ok } from '../../api.js';

/** localStorage key of the draft, one per signed-in key, so that two people on one browser keep theirs apart. */
const draftKey = (keyId: string) => `timbre.speak.draft.${keyId}`;

/** Characters as the service counts them: code points. */
export const characterCount = (text: string) => [...text].length;

/**
 * The text being written on Speak, kept in localStorage for the signed-in key: it survives leaving
 * the screen and reloading the page. Typing before the draft is read wins over the stored one.
 */
export function useDraft(): [string, (text: string) => void] {
  const [text, setText] = useState('');
  const storage = useRef<string | undefined>(undefined);
  const typed = useRef(false);
  const latest = useRef(text);
  latest.current = text;

  useEffect(() => {
    void api.GET('/api/session').then(({ data }) => {
      if (!data?.signed_in) return;
      storage.current = draftKey(data.key_id);
      const stored = localStorage.getItem(storage.current);
      if (typed.current) store(latest.current);
      else if (stored !== null) setText(stored);
    });
  }, []);

  const store = (next: string) => {
    if (storage.current === undefined) return;
    if (next === '') localStorage.removeItem(storage.current);
    else localStorage.setItem(storage.current, next);
  };
  const change = (next: string) => {
    typed.current = true;
    setText(next);
    store(next);
  };
  return [text, change];
}

/** The longest text the service speaks in one request (TIMBRE_MAX_TEXT_CHARS); undefined until read. */
export function useTextLimit(): number | undefined {
  const [limit, setLimit] = useState<number | undefined>();
  useEffect(() => {
    ok(api.GET('/api/generate/limits')).then(
      (limits) => setLimit(limits.max_text_chars),
      // Without the limit the count is shown alone; the service still refuses a text too long, in its own words.
      () => undefined,
    );
  }, []);
  return limit;
}

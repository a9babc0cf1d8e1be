import { useCallback, useState } from 'preact/hooks';
import { errorText } from '../api.js';

/**
 * Runs one action of a screen at a time and keeps what a person needs to see of it: whether it
 * is running and the service's error message when it failed.
 */
export function useTask() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const run = useCallback(async <T>(action: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(undefined);
    try {
      return await action();
    } catch (failure) {
      setError(errorText(failure));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, setError };
}

import { useEffect, useState } from 'preact/hooks';

/** The value once it has stopped changing for `delay` ms (a search sent after typing pauses, not per key). */
export function useDebounced<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

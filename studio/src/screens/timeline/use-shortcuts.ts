import { useEffect, useRef } from 'preact/hooks';

interface Shortcuts {
  undo: () => void;
  redo: () => void;
  togglePlay: () => void;
}

/** Where typing goes to the field: its own undo and space stay the browser's. */
const TYPING = 'input:not([type=checkbox]):not([type=radio]), textarea, select, [contenteditable]';
/** Controls that space presses: space there is theirs, except on a block, where it plays. */
const PRESSABLE = `${TYPING}, input, button:not(.timeline-block), a, summary`;

function within(target: EventTarget | null, selector: string): boolean {
  return target instanceof Element && target.closest(selector) !== null;
}

/**
 * The timeline's keys on the whole page: Ctrl+Z undoes, Ctrl+Shift+Z and Ctrl+Y redo (Cmd on
 * macOS), space plays or pauses the preview. Not while the person types in a field.
 */
export function useShortcuts(shortcuts: Shortcuts): void {
  const current = useRef(shortcuts);
  current.current = shortcuts;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey) return;
      const command = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      let action: (() => void) | undefined;
      if (command && key === 'z' && !within(event.target, TYPING)) action = event.shiftKey ? current.current.redo : current.current.undo;
      else if (command && key === 'y' && !within(event.target, TYPING)) action = current.current.redo;
      else if (!command && key === ' ' && !within(event.target, PRESSABLE)) action = current.current.togglePlay;
      if (!action) return;
      event.preventDefault();
      action();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}

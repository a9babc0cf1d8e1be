/**
 * Undo and redo as two stacks of earlier and later states, kept apart from the screen so it can be
 * tested without a browser. The present state is the caller's; the history only holds the others.
 */

/** How many edits Undo can go back (older ones are forgotten first). */
export const HISTORY_STEPS = 100;

export interface History<T> {
  readonly undo: readonly Step<T>[];
  readonly redo: readonly Step<T>[];
}

interface Step<T> {
  readonly state: T;
  /** Edits of one group in a row (key presses nudging one block) are undone as one step. */
  readonly group: string | undefined;
}

export function emptyHistory<T>(): History<T> {
  return { undo: [], redo: [] };
}

/**
 * The history after an edit: the state before it becomes the step Undo goes back to, and what Redo
 * could have brought back is dropped, as a new edit starts a new line of changes.
 */
export function recorded<T>(history: History<T>, before: T, group?: string, steps = HISTORY_STEPS): History<T> {
  const last = history.undo.at(-1);
  if (group !== undefined && last?.group === group && history.redo.length === 0) return history;
  return { undo: [...history.undo, { state: before, group }].slice(-steps), redo: [] };
}

/** Goes back one step from `present`: the state to show and the history after, or nothing to undo. */
export function undone<T>(history: History<T>, present: T): { state: T; history: History<T> } | undefined {
  const step = history.undo.at(-1);
  if (!step) return undefined;
  return { state: step.state, history: { undo: history.undo.slice(0, -1), redo: [...history.redo, { state: present, group: undefined }] } };
}

/** Goes forward one undone step from `present`, or nothing to redo. */
export function redone<T>(history: History<T>, present: T): { state: T; history: History<T> } | undefined {
  const step = history.redo.at(-1);
  if (!step) return undefined;
  return { state: step.state, history: { undo: [...history.undo, { state: present, group: undefined }], redo: history.redo.slice(0, -1) } };
}

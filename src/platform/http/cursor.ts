import { ApiError } from '../errors.js';

/**
 * A page's position in a list ordered newest first: the sort time and id of its last row, as an
 * opaque token. Keyset paging, so rows added while a client pages do not shift what it sees.
 */
export interface Position {
  at: string;
  id: string;
}

export function encodeCursor(position: Position): string {
  return Buffer.from(JSON.stringify([position.at, position.id])).toString('base64url');
}

/** The position a cursor names; anything that is not one of ours is 400 `invalid_cursor`. */
export function decodeCursor(cursor: string): Position {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') return { at: value[0], id: value[1] };
  } catch {
    // Not JSON: refused below like any other foreign cursor.
  }
  throw new ApiError(400, 'invalid_cursor', 'The cursor is not one this service gave; start again without it', { cursor });
}

/** One page of rows fetched one beyond the limit: the rows to show and the cursor of the next page, if any. */
export function pageOf<Row>(rows: Row[], limit: number, positionOf: (row: Row) => Position): { rows: Row[]; nextCursor: string | null } {
  if (rows.length <= limit) return { rows, nextCursor: null };
  const shown = rows.slice(0, limit);
  return { rows: shown, nextCursor: encodeCursor(positionOf(shown.at(-1)!)) };
}

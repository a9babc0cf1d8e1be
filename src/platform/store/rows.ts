/** The column a record field is stored in: `ownerKeyId` → `owner_key_id`. */
export type ColumnOf<Field extends string> = Field extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${ColumnOf<Tail>}`
  : Field;

/**
 * A table's row for records of type `R`: every field under its snake_case column, the fields in
 * `Json` stored as JSON text, those in `Flag` as 0 or 1. The one declaration of a row:
 * `prepare<Params, RowOf<…>>` reads it.
 */
export type RowOf<R, Json extends keyof R = never, Flag extends keyof R = never> = {
  [K in keyof R & string as ColumnOf<K>]: K extends Json ? (null extends R[K] ? string | null : string) : K extends Flag ? number : R[K];
};

/** How each JSON column is read back: the parsed value (undefined for text that is no JSON) in, the checked field out. */
export type JsonReaders<R, Json extends keyof R> = { [K in Json]: (value: unknown) => R[K] };

function columnOf(field: string): string {
  return field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function fieldOf(column: string): string {
  return column.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The mapper of one table, from its JSON and flag columns alone: every other column becomes the
 * camelCase field of the same value, each JSON column is parsed and handed to its reader (a null
 * stays null), each flag becomes a boolean. Columns the query adds beyond the record (counts, say)
 * come through the same way.
 */
export function rowMapper<R, Json extends keyof R & string = never, Flag extends keyof R & string = never>(
  json: JsonReaders<R, Json>,
  flags: readonly Flag[] = [],
): (row: RowOf<R, Json, Flag>) => R {
  const readers = new Map<string, (value: unknown) => unknown>(
    Object.entries<(value: unknown) => unknown>(json).map(([field, read]) => [columnOf(field), read]),
  );
  const flagColumns = new Set(flags.map(columnOf));
  return (row) => {
    const record = Object.fromEntries(
      Object.entries(row).map(([column, value]: [string, unknown]) => {
        const read = readers.get(column);
        if (read && typeof value === 'string') return [fieldOf(column), read(parsed(value))];
        return [fieldOf(column), flagColumns.has(column) ? value === 1 : value];
      }),
    );
    // The only assertion of the store: RowOf<R> names exactly R's fields as columns, each JSON
    // column went through the reader that returns its field's type and each flag became a boolean.
    return record as R;
  };
}

/** A JSON column read back as it was written, for a field of type `unknown`. */
export const readAny = (value: unknown): unknown => value;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON object of numbers (stage timings, say) read back: its number entries. */
export function readNumbers(value: unknown): Record<string, number> {
  return isRecord(value) ? Object.fromEntries(Object.entries(value).filter((entry): entry is [string, number] => typeof entry[1] === 'number')) : {};
}

/** The stored error of a job, task or take, read back in the shape it was written; anything else is no error. */
export function readStoredError(value: unknown): { code: string; message: string; details: Record<string, unknown>; status?: number } | null {
  if (!isRecord(value) || typeof value.code !== 'string' || typeof value.message !== 'string') return null;
  const error = { code: value.code, message: value.message, details: isRecord(value.details) ? value.details : {} };
  return typeof value.status === 'number' ? { ...error, status: value.status } : error;
}

/**
 * One UPDATE's `column = @field` list and bound values, from the fields a change sets (an undefined
 * field sets nothing); a field with a writer (JSON, a flag) is stored through it unless null.
 */
export function assignmentsOf<C extends object>(
  changes: C,
  columns: { readonly [K in keyof C]-?: string },
  writers: Partial<Record<keyof C, (value: unknown) => unknown>> = {},
): { assignments: string; values: Record<string, unknown> } {
  const columnOf = new Map<string, string>(Object.entries(columns));
  const writerOf = new Map<string, ((value: unknown) => unknown) | undefined>(Object.entries(writers));
  const set = Object.entries(changes).filter(([field, value]) => columnOf.has(field) && value !== undefined);
  return {
    assignments: set.map(([field]) => `${columnOf.get(field)} = @${field}`).join(', '),
    values: Object.fromEntries(
      set.map(([field, value]: [string, unknown]) => {
        const write = writerOf.get(field);
        return [field, value !== null && write ? write(value) : value];
      }),
    ),
  };
}

/** One schema version: never edited once released, so existing data directories upgrade in place. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

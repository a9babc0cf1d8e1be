import { readFile } from 'node:fs/promises';

export function seconds(startNs: bigint): number {
  return Number(process.hrtime.bigint() - startNs) / 1e9;
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { value, seconds: seconds(start) };
}

/** Peak resident memory of a process (VmHWM), in MiB. */
export async function peakMemoryMiB(pid: number | 'self' = 'self'): Promise<number | null> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kib = /^VmHWM:\s+(\d+)/m.exec(status)?.[1];
  return kib ? Math.round(Number(kib) / 1024) : null;
}

export function round(value: number, digits = 3): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Prints rows as an aligned text table. */
export function printTable(title: string, rows: object[]): void {
  process.stdout.write(`\n${title}\n`);
  if (rows.length === 0) {
    process.stdout.write('  (nothing installed to measure)\n');
    return;
  }
  const records = rows as Record<string, unknown>[];
  const columns = Object.keys(records[0]!);
  const cell = (value: unknown) => (value === null || value === undefined ? '-' : String(value));
  const widths = columns.map((column) => Math.max(column.length, ...records.map((row) => cell(row[column]).length)));
  const line = (values: string[]) => `  ${values.map((value, index) => value.padEnd(widths[index]!)).join('  ')}\n`;
  process.stdout.write(line(columns));
  process.stdout.write(line(widths.map((width) => '-'.repeat(width))));
  for (const row of records) process.stdout.write(line(columns.map((column) => cell(row[column]))));
}

/** The middle value; with an even count, the mean of the two middle ones. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

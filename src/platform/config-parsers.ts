/** Parsers of setting values: each names the setting it reads in the error it throws. */
export type Parser<T> = (raw: string, name: string) => T;

export class ConfigError extends Error {}

export const text: Parser<string> = (raw) => raw;
export const list: Parser<string[]> = (raw) =>
  raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
/** A comma-separated list of at least one of the given names. */
export const listOf =
  (choices: readonly string[]): Parser<string[]> =>
  (raw, name) => {
    const items = list(raw, name);
    const unknown = items.filter((item) => !choices.includes(item));
    if (items.length === 0 || unknown.length > 0) {
      throw new ConfigError(`${name} must list some of ${choices.join(', ')}, got "${raw}"`);
    }
    return [...new Set(items)];
  };
export const boolean: Parser<boolean> = (raw, name) => {
  if (/^(1|true|yes)$/i.test(raw)) return true;
  if (/^(0|false|no)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
};
export const integer =
  (min: number, max: number): Parser<number> =>
  (raw, name) => {
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
    }
    return value;
  };

/** A Redis address: `redis://[user:password@]host:port[/db]`, or `rediss://` for TLS. */
export const redisUrl: Parser<string> = (raw, name) => {
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (!url || !['redis:', 'rediss:'].includes(url.protocol) || !url.hostname || !/^(\/\d*)?$/.test(url.pathname)) {
    throw new ConfigError(`${name} must be redis://[user:password@]host:port[/db] or rediss://…, got "${raw.replace(/\/\/[^@/]*@/, '//…@')}"`);
  }
  return raw;
};

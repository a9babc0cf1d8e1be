/** Parsers of setting values: each names the setting it reads in the error it throws. */
export type Parser<T> = (raw: string, name: string) => T;

export class ConfigError extends Error {}

export const text: Parser<string> = (raw) => raw;
export const list: Parser<string[]> = (raw) =>
  raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
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

/**
 * German cardinal numbers, 0..999 999, written as one word as German does: 21 → "einundzwanzig",
 * 1 001 → "tausendeins".
 */

const ONES = [
  'null',
  'eins',
  'zwei',
  'drei',
  'vier',
  'fünf',
  'sechs',
  'sieben',
  'acht',
  'neun',
  'zehn',
  'elf',
  'zwölf',
  'dreizehn',
  'vierzehn',
  'fünfzehn',
  'sechzehn',
  'siebzehn',
  'achtzehn',
  'neunzehn',
];
const TENS = ['', '', 'zwanzig', 'dreißig', 'vierzig', 'fünfzig', 'sechzig', 'siebzig', 'achtzig', 'neunzig'];

/** "eins" only when counting; inside a compound ("einundzwanzig") or before a noun it is "ein". */
function below100(n: number, counting: boolean): string {
  if (n === 1) return counting ? 'eins' : 'ein';
  if (n < 20) return ONES[n]!;
  const unit = n % 10;
  const tens = TENS[Math.floor(n / 10)]!;
  return unit ? `${below100(unit, false)}und${tens}` : tens;
}

function below1000(n: number, counting: boolean): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  const prefix = hundreds === 0 ? '' : hundreds === 1 ? 'hundert' : `${ONES[hundreds]}hundert`;
  return prefix + (rest ? below100(rest, counting) : '');
}

/** `beforeNoun` says "ein" for a final one: "ein Prozent", "hundertein Prozent". */
export function cardinalDe(n: number, beforeNoun = false): string {
  if (n === 0) return 'null';
  const thousands = Math.floor(n / 1000);
  const rest = n % 1000;
  const prefix = thousands === 0 ? '' : thousands === 1 ? 'tausend' : `${below1000(thousands, false)}tausend`;
  return prefix + (rest ? below1000(rest, !beforeNoun) : '');
}

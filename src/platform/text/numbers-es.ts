/**
 * Spanish cardinal numbers, 0..999 999, masculine forms: veintiuno, cien / ciento uno, quinientos,
 * and "un" / "veintiún" before "mil" and before a noun ("veintiún mil", "un por ciento").
 */

const ONES = [
  'cero',
  'uno',
  'dos',
  'tres',
  'cuatro',
  'cinco',
  'seis',
  'siete',
  'ocho',
  'nueve',
  'diez',
  'once',
  'doce',
  'trece',
  'catorce',
  'quince',
  'dieciséis',
  'diecisiete',
  'dieciocho',
  'diecinueve',
  'veinte',
  'veintiuno',
  'veintidós',
  'veintitrés',
  'veinticuatro',
  'veinticinco',
  'veintiséis',
  'veintisiete',
  'veintiocho',
  'veintinueve',
];
const TENS = ['', '', '', 'treinta', 'cuarenta', 'cincuenta', 'sesenta', 'setenta', 'ochenta', 'noventa'];
const HUNDREDS = ['', 'ciento', 'doscientos', 'trescientos', 'cuatrocientos', 'quinientos', 'seiscientos', 'setecientos', 'ochocientos', 'novecientos'];

/** `shortOne`: "uno" shortens to "un" before a noun or "mil" (veintiún, treinta y un). */
function below100(n: number, shortOne: boolean): string {
  if (shortOne && n === 1) return 'un';
  if (shortOne && n === 21) return 'veintiún';
  if (n < 30) return ONES[n]!;
  const unit = n % 10;
  const tens = TENS[Math.floor(n / 10)]!;
  return unit ? `${tens} y ${below100(unit, shortOne)}` : tens;
}

function below1000(n: number, shortOne: boolean): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  if (hundreds === 0) return below100(rest, shortOne);
  // Exactly one hundred is "cien"; with more after it, "ciento".
  if (rest === 0) return hundreds === 1 ? 'cien' : HUNDREDS[hundreds]!;
  return `${HUNDREDS[hundreds]} ${below100(rest, shortOne)}`;
}

export function cardinalEs(n: number, beforeNoun = false): string {
  if (n === 0) return 'cero';
  const thousands = Math.floor(n / 1000);
  const rest = n % 1000;
  const thousand = thousands === 0 ? '' : thousands === 1 ? 'mil' : `${below1000(thousands, true)} mil`;
  const restWords = rest ? below1000(rest, beforeNoun) : '';
  return [thousand, restWords].filter(Boolean).join(' ');
}

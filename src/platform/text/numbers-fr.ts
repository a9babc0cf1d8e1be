/**
 * French cardinal numbers, 0..999 999, in the traditional spelling: hyphens below one hundred
 * except around "et" (vingt et un), soixante-dix, quatre-vingts, quatre-vingt-dix, and the plural
 * "s" of vingt and cent only when nothing follows (quatre-vingts, deux cents, but quatre-vingt
 * mille, deux cent un).
 */

const ONES = ['zéro', 'un', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf', 'dix', 'onze', 'douze', 'treize', 'quatorze', 'quinze', 'seize'];
const TENS = ['', '', 'vingt', 'trente', 'quarante', 'cinquante', 'soixante'];

function below100(n: number, final: boolean): string {
  if (n <= 16) return ONES[n]!;
  if (n < 20) return `dix-${ONES[n - 10]}`;
  const tens = Math.floor(n / 10);
  const unit = n % 10;
  // Seventy and ninety count on from sixty and eighty: soixante-douze, quatre-vingt-dix-neuf.
  if (tens === 7) return unit === 1 ? 'soixante et onze' : `soixante-${below100(10 + unit, final)}`;
  if (tens === 8) return unit === 0 ? `quatre-vingt${final ? 's' : ''}` : `quatre-vingt-${ONES[unit]}`;
  if (tens === 9) return `quatre-vingt-${below100(10 + unit, final)}`;
  if (unit === 0) return TENS[tens]!;
  return unit === 1 ? `${TENS[tens]} et un` : `${TENS[tens]}-${ONES[unit]}`;
}

function below1000(n: number, final: boolean): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  if (hundreds === 0) return below100(rest, final);
  const hundred = hundreds === 1 ? 'cent' : `${ONES[hundreds]} cent${rest === 0 && final ? 's' : ''}`;
  return rest ? `${hundred} ${below100(rest, final)}` : hundred;
}

export function cardinalFr(n: number): string {
  const thousands = Math.floor(n / 1000);
  const rest = n % 1000;
  if (thousands === 0) return below1000(rest, true);
  // "mille" is invariable and takes no "un": mille, deux mille, quatre-vingt mille.
  const thousand = thousands === 1 ? 'mille' : `${below1000(thousands, false)} mille`;
  return rest ? `${thousand} ${below1000(rest, true)}` : thousand;
}

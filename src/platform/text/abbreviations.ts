/**
 * Abbreviations after which a period does not end a sentence, per primary language subtag, for the
 * sentence splitter. Written without inner spaces ("z.B." also matches "z. B."); each ends with its period.
 *
 * Only abbreviations that practically never end a sentence are listed: titles before a name,
 * Latin "e.g." forms, months before a day. Those that often do end one (etc., usw., ecc., Inc.,
 * Ltd., Jr.) are left out on purpose: before a lowercase word or a digit the splitter keeps them
 * inside the sentence anyway, and before a capitalised word they usually are its end.
 * Single letters ("J.", "M.", "z.") need no entry: the splitter treats them as initials.
 */
const ABBREVIATIONS: Record<string, readonly string[]> = {
  en: [
    'Dr.',
    'Mr.',
    'Mrs.',
    'Ms.',
    'Prof.',
    'St.',
    'Sr.',
    'Gen.',
    'Col.',
    'Capt.',
    'Lt.',
    'Sgt.',
    'Gov.',
    'Sen.',
    'Rep.',
    'Rev.',
    'vs.',
    'e.g.',
    'i.e.',
    'cf.',
    'approx.',
    'Fig.',
    'Sec.',
    'Vol.',
    'Ch.',
    'Mt.',
    'Ave.',
    'Jan.',
    'Feb.',
    'Mar.',
    'Apr.',
    'Jun.',
    'Jul.',
    'Aug.',
    'Sep.',
    'Sept.',
    'Oct.',
    'Nov.',
    'Dec.',
  ],
  de: ['Dr.', 'Prof.', 'Hr.', 'Fr.', 'Nr.', 'z.B.', 'd.h.', 'u.a.', 'bzw.', 'ca.', 'vgl.', 'evtl.', 'ggf.', 'inkl.', 'Str.', 'St.', 'Abs.', 'Bd.'],
  fr: ['Mme.', 'Mlle.', 'Mgr.', 'Dr.', 'Pr.', 'p.ex.', 'cf.', 'env.', 'av.', 'bd.', 'St.', 'Ste.'],
  es: ['Sr.', 'Sra.', 'Srta.', 'Dr.', 'Dra.', 'Dña.', 'Lic.', 'Ing.', 'p.ej.', 'aprox.', 'Av.', 'núm.', 'pág.', 'Uds.', 'Ud.'],
  it: ['Sig.', 'Sigg.', 'Dott.', 'Prof.', 'Ing.', 'Avv.', 'On.', 'p.es.', 'pag.', 'ca.'],
  pt: ['Sr.', 'Sra.', 'Srta.', 'Dr.', 'Dra.', 'Prof.', 'Profa.', 'Eng.', 'p.ex.', 'pág.', 'aprox.', 'Av.'],
};

/** Lowercase entries also match capitalised at the start of a sentence ("Ca. 20 Leute"). */
function withCapitals(list: readonly string[]): Set<string> {
  const set = new Set<string>();
  for (const entry of list) set.add(entry).add(entry.charAt(0).toUpperCase() + entry.slice(1));
  return set;
}

const SETS = new Map(Object.entries(ABBREVIATIONS).map(([language, list]) => [language, withCapitals(list)]));
const NONE = new Set<string>();

/** The abbreviations of `language` (a primary subtag such as `de`); none for other languages. */
export function abbreviationsFor(language: string): ReadonlySet<string> {
  return SETS.get(language) ?? NONE;
}

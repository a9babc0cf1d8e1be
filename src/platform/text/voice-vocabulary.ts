/**
 * The words a free-text voice description ("a calm, deep male voice, slow") is read with, kept apart
 * from the parser so that the tables can grow and be rendered into the README without touching it.
 */

export type DescribedAttribute = 'gender' | 'age' | 'pitch' | 'pace' | 'energy' | 'brightness' | 'breathiness' | 'accent';
export type NumericAttribute = 'pitch' | 'pace' | 'energy' | 'brightness' | 'breathiness';
export type VocabularyLanguage = 'en' | 'de' | 'fr' | 'es' | 'it' | 'pt' | 'nl';

/** Words and phrases by the language they belong to; accents are optional when matching ("rapido" finds "rápido"). */
export type WordsByLanguage = Readonly<Partial<Record<VocabularyLanguage, readonly string[]>>>;

/** Numeric attributes are keyed by the signed step a word adds ('-1', '+1'). */
type Steps = Readonly<Record<'-1' | '+1', WordsByLanguage>>;

export interface DescriptionVocabulary {
  readonly gender: Readonly<Record<'female' | 'male', WordsByLanguage>>;
  readonly age: Readonly<Record<'child' | 'young' | 'adult' | 'old', WordsByLanguage>>;
  readonly pitch: Steps;
  readonly pace: Steps;
  readonly energy: Steps;
  readonly brightness: Steps;
  readonly breathiness: Readonly<Record<'+1', WordsByLanguage>>;
  /** Keyed by BCP-47 tag. */
  readonly accent: Readonly<Record<string, WordsByLanguage>>;
}

/**
 * attribute → value → language → words. A word listed under both a gender and an age ("boy", "old
 * woman") sets both; every other word sets one attribute. German adjectives also match with their
 * declension endings ("tief" finds "tiefe", "tiefen", "tiefer"), so only their base forms are listed.
 */
export const DESCRIPTION_VOCABULARY: DescriptionVocabulary = {
  gender: {
    male: {
      en: ['male', 'man', 'men', 'masculine', 'guy', 'gentleman', 'boy', 'grandpa', 'grandfather', 'old man', 'young man'],
      de: ['männlich', 'mann', 'herr'],
      fr: ['homme', 'masculin', 'masculine', 'garçon'],
      es: ['hombre', 'masculino', 'chico'],
      it: ['uomo', 'maschile', 'ragazzo'],
      pt: ['homem', 'masculino', 'rapaz', 'menino'],
      nl: ['man', 'mannelijk', 'jongen'],
    },
    female: {
      en: ['female', 'woman', 'women', 'feminine', 'lady', 'girl', 'grandma', 'grandmother', 'granny', 'old woman', 'old lady', 'young woman', 'young lady'],
      de: ['weiblich', 'frau', 'dame', 'mädchen'],
      fr: ['femme', 'féminin', 'féminine', 'dame', 'fille', 'jeune fille'],
      es: ['mujer', 'femenino', 'femenina', 'chica', 'niña'],
      it: ['donna', 'femminile', 'ragazza', 'bambina'],
      pt: ['mulher', 'feminino', 'feminina', 'menina'],
      nl: ['vrouw', 'vrouwelijk', 'meisje'],
    },
  },
  age: {
    child: {
      // German and Dutch "kind" is left out: it would read "kind of slow" as a child's voice.
      en: ['child', 'children', 'kid', 'kids', 'boy', 'girl', 'toddler'],
      de: ['kindlich', 'mädchen'],
      fr: ['enfant', 'garçon', 'fille'],
      es: ['niño', 'niña'],
      it: ['bambino', 'bambina'],
      pt: ['criança', 'menino', 'menina'],
      nl: ['jongen', 'meisje'],
    },
    young: {
      en: ['young', 'younger', 'youthful', 'teen', 'teenage', 'teenager', 'young man', 'young woman', 'young lady'],
      // "Junge" is also the noun "boy", but as an adjective ("eine junge Frau") it is far more common.
      de: ['jung', 'jünger'],
      fr: ['jeune', 'jeune fille'],
      es: ['joven', 'chico', 'chica'],
      it: ['giovane', 'ragazzo', 'ragazza'],
      pt: ['jovem', 'rapaz'],
      nl: ['jong', 'jonger'],
    },
    adult: {
      en: ['adult', 'middle-aged', 'mature', 'grown-up'],
      de: ['erwachsen'],
      fr: ['adulte'],
      es: ['adulto', 'adulta'],
      it: ['adulto', 'adulta'],
      pt: ['adulto', 'adulta'],
      nl: ['volwassen'],
    },
    old: {
      en: ['old', 'older', 'elderly', 'aged', 'senior', 'grandpa', 'grandfather', 'grandma', 'grandmother', 'granny', 'old man', 'old woman', 'old lady'],
      de: ['alt', 'älter', 'betagt'],
      fr: ['vieux', 'vieille', 'âgé', 'âgée'],
      es: ['viejo', 'vieja', 'anciano', 'anciana'],
      it: ['vecchio', 'vecchia', 'anziano', 'anziana'],
      pt: ['velho', 'velha', 'idoso', 'idosa'],
      nl: ['oud', 'ouder', 'bejaard'],
    },
  },
  pitch: {
    '-1': {
      en: ['deep', 'deeper', 'low', 'lower', 'low-pitched', 'bass', 'baritone'],
      de: ['tief'],
      fr: ['grave', 'profond', 'profonde'],
      es: ['grave', 'profundo', 'profunda'],
      it: ['grave', 'basso', 'bassa', 'profondo', 'profonda'],
      pt: ['grave', 'profundo', 'profunda'],
      nl: ['diep', 'laag'],
    },
    '+1': {
      en: ['high', 'higher', 'high-pitched', 'squeaky', 'shrill', 'soprano', 'piping'],
      de: ['hoch', 'hohe', 'höher'],
      fr: ['aigu', 'aiguë'],
      // "Alta"/"alto" also mean loud ("en voz alta"); high is the reading a description usually intends.
      es: ['agudo', 'aguda', 'alto', 'alta'],
      it: ['acuto', 'acuta', 'alto', 'alta'],
      pt: ['agudo', 'aguda', 'alto', 'alta'],
      nl: ['hoog', 'hoge'],
    },
  },
  pace: {
    '-1': {
      en: ['slow', 'slowly', 'slower', 'unhurried', 'leisurely', 'measured', 'drawling', 'deliberate'],
      de: ['langsam', 'gemächlich'],
      fr: ['lent', 'lente', 'lentement'],
      es: ['lento', 'lenta', 'despacio', 'pausado', 'pausada'],
      it: ['lento', 'lenta', 'lentamente'],
      pt: ['lento', 'lenta', 'devagar'],
      nl: ['traag', 'langzaam'],
    },
    '+1': {
      en: ['fast', 'faster', 'quick', 'quickly', 'quicker', 'rapid', 'rapidly', 'brisk', 'hurried', 'snappy', 'speedy'],
      de: ['schnell', 'zügig', 'flott', 'rasch'],
      fr: ['rapide', 'rapidement', 'vite'],
      es: ['rápido', 'rápida', 'veloz', 'deprisa'],
      it: ['veloce', 'rapido', 'rapida'],
      pt: ['rápido', 'rápida', 'veloz'],
      nl: ['snel', 'vlug'],
    },
  },
  energy: {
    '-1': {
      en: ['calm', 'calmer', 'soothing', 'gentle', 'soft', 'softer', 'quiet', 'quieter', 'relaxed', 'serene', 'sleepy', 'monotone', 'subdued'],
      de: ['ruhig', 'sanft', 'leise', 'gelassen'],
      fr: ['calme', 'doux', 'douce', 'tranquille', 'apaisant', 'apaisante'],
      es: ['tranquilo', 'tranquila', 'calmado', 'calmada', 'calma', 'suave', 'sereno', 'serena'],
      it: ['calmo', 'calma', 'tranquillo', 'tranquilla', 'dolce', 'sereno', 'serena'],
      pt: ['calmo', 'calma', 'tranquilo', 'tranquila', 'suave', 'sereno', 'serena'],
      nl: ['kalm', 'rustig', 'zacht'],
    },
    '+1': {
      en: ['energetic', 'excited', 'lively', 'loud', 'louder', 'dynamic', 'enthusiastic', 'cheerful', 'upbeat', 'powerful', 'bubbly', 'animated', 'vibrant'],
      de: ['energisch', 'laut', 'lebhaft', 'dynamisch', 'kräftig'],
      fr: ['énergique', 'dynamique', 'enjoué', 'enjouée'],
      es: ['enérgico', 'enérgica', 'animado', 'animada', 'alegre', 'dinámico', 'dinámica'],
      it: ['energico', 'energica', 'vivace', 'dinamico', 'dinamica'],
      pt: ['enérgico', 'enérgica', 'animado', 'animada', 'alegre', 'dinâmico', 'dinâmica'],
      nl: ['energiek', 'levendig', 'luid'],
    },
  },
  brightness: {
    '-1': {
      en: ['dark', 'darker', 'warm', 'warmer', 'mellow', 'rich', 'smooth', 'velvety', 'silky', 'round', 'full'],
      de: ['dunkel', 'dunkle', 'warm', 'samtig', 'voll'],
      fr: ['sombre', 'chaud', 'chaude', 'chaleureux', 'chaleureuse', 'velouté', 'veloutée', 'rond', 'ronde'],
      es: ['oscuro', 'oscura', 'cálido', 'cálida', 'aterciopelado', 'aterciopelada'],
      it: ['scuro', 'scura', 'caldo', 'calda', 'vellutato', 'vellutata'],
      pt: ['escuro', 'escura', 'quente', 'aveludado', 'aveludada'],
      nl: ['donker', 'warm', 'vol'],
    },
    '+1': {
      en: ['bright', 'brighter', 'crisp', 'clear', 'thin', 'nasal', 'sharp', 'brilliant'],
      de: ['hell', 'klar'],
      fr: ['clair', 'claire', 'brillant', 'brillante'],
      es: ['brillante', 'claro', 'clara', 'nítido', 'nítida'],
      it: ['brillante', 'chiaro', 'chiara', 'squillante'],
      pt: ['brilhante', 'claro', 'clara', 'nítido', 'nítida'],
      nl: ['helder'],
    },
  },
  breathiness: {
    '+1': {
      en: ['breathy', 'whispery', 'whispering', 'whispered', 'airy', 'husky', 'raspy', 'gravelly', 'hoarse', 'gruff', 'smoky'],
      de: ['hauchig', 'rauchig', 'heiser', 'rau', 'flüsternd'],
      fr: ['voilé', 'voilée', 'rauque', 'chuchoté', 'chuchotée'],
      es: ['ronco', 'ronca', 'susurrante', 'entrecortado', 'entrecortada'],
      it: ['roco', 'roca', 'rauco', 'rauca', 'sussurrato', 'sussurrata'],
      pt: ['rouco', 'rouca', 'sussurrado', 'sussurrada'],
      nl: ['hees', 'schor'],
    },
  },
  accent: {
    'en-GB': {
      en: ['british', 'english', 'scottish', 'welsh', 'cockney', 'received pronunciation'],
      de: ['britisch', 'englisch', 'schottisch'],
      fr: ['britannique', 'anglais', 'anglaise', 'écossais', 'écossaise'],
      es: ['británico', 'británica', 'inglés', 'inglesa'],
    },
    'en-US': { en: ['american'], de: ['amerikanisch'], fr: ['américain', 'américaine'], es: ['estadounidense'] },
    'en-AU': { en: ['australian', 'aussie'], de: ['australisch'], fr: ['australien', 'australienne'] },
    'en-NZ': { en: ['new zealand', 'kiwi'] },
    'en-IN': { en: ['indian'], de: ['indisch'], fr: ['indien', 'indienne'] },
    'en-IE': { en: ['irish'], de: ['irisch'], fr: ['irlandais', 'irlandaise'] },
    'en-ZA': { en: ['south african'], de: ['südafrikanisch'], fr: ['sud-africain', 'sud-africaine'] },
    'en-CA': { en: ['canadian'], de: ['kanadisch'] },
    'fr-FR': { en: ['french', 'parisian'], de: ['französisch'], fr: ['français', 'française', 'parisien', 'parisienne'] },
    'fr-CA': { en: ['canadian french', 'french canadian', 'québécois'], fr: ['québécois', 'québécoise', 'canadien', 'canadienne'] },
    'es-ES': { en: ['spanish', 'castilian'], de: ['spanisch'], fr: ['espagnol', 'espagnole'], es: ['español', 'española', 'castellano', 'castellana'] },
    'es-MX': { en: ['mexican'], de: ['mexikanisch'], fr: ['mexicain', 'mexicaine'], es: ['mexicano', 'mexicana'] },
    'pt-BR': { en: ['brazilian'], de: ['brasilianisch'], fr: ['brésilien', 'brésilienne'], pt: ['brasileiro', 'brasileira'] },
    'pt-PT': { en: ['portuguese'], de: ['portugiesisch'], fr: ['portugais', 'portugaise'], pt: ['português', 'portuguesa'] },
    'de-DE': { en: ['german'], de: ['deutsch'], fr: ['allemand', 'allemande'] },
    'de-AT': { en: ['austrian'], de: ['österreichisch'], fr: ['autrichien', 'autrichienne'] },
    'de-CH': { en: ['swiss', 'swiss german'], de: ['schweizerisch', 'schweizer'] },
  },
};

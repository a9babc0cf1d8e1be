/** The PLS 1.0 namespace (W3C Pronunciation Lexicon Specification). */
export const PLS_NAMESPACE = 'http://www.w3.org/2005/01/pronunciation-lexicon';

/**
 * Timbre's own attributes on `<grapheme>`, for what PLS has no word for (case sensitivity,
 * whole-word matching): other readers ignore attributes of a namespace they do not know.
 */
export const TIMBRE_PLS_NAMESPACE = 'https://timbre.local/pls';

/** The media types a PLS document may be sent as; the first is PLS's own. */
export const PLS_MEDIA_TYPES = ['application/pls+xml', 'application/xml', 'text/xml'] as const;

/**
 * How Skillbench reads Chinese, Japanese and Korean text, in one place for the search tokenizer
 * (src/main/text/tokenize.ts) and the library map's cluster names (src/renderer/features/overview/cluster-names.ts),
 * so the map's words are cut as search cuts them. Pure.
 */

/** CJK scripts (a regular-expression class body): a run of these is read as characters and their pairs. */
export const CJK_CLASS = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}'

/** Particles (one character each): neither a term nor part of one; they break a CJK run (排序的方法 → 排序, 方法). */
export const CJK_PARTICLES = '的地得了着是在和与及或把被也都就又很吗呢吧啊'

/** The language a reflection is written in: the task's own language. */
export type ReflectLanguage = 'en' | 'zh'

const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/gu
const LATIN_WORD = /[A-Za-z]{2,}/g

/**
 * Chinese when Han characters make up at least 30 % of the "words" (each Han char counts as one,
 * each Latin word as one), so `请修复 parser.py 的 bug` is Chinese and an English text quoting one
 * Chinese name stays English.
 */
export function detectLanguage(text: string): ReflectLanguage {
  const sample = text.length > 20_000 ? text.slice(0, 20_000) : text
  const han = sample.match(HAN)?.length ?? 0
  if (han === 0) {
    return 'en'
  }
  const words = sample.match(LATIN_WORD)?.length ?? 0
  return han / (han + words) >= 0.3 ? 'zh' : 'en'
}

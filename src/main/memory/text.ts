/**
 * Text helpers for the memory files: normalisation and a near-duplicate test that works for
 * Chinese and English alike (character bigrams need no tokenizer).
 */

/** Default similarity above which two entries count as the same rule / preference / failure. */
export const NEAR_DUPLICATE_THRESHOLD = 0.8

/**
 * Lower-cases, NFKC-folds (full-width → half-width), drops punctuation, Markdown marks and
 * extra spaces, so "Only use: cat, ls." and "only use cat ls" compare equal.
 */
export function normalizeEntry(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[`*_~>#[\]()"'“”‘’「」『』《》【】]/g, ' ')
    .replace(/[\p{P}\p{S}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

/** Character bigrams of the normalised text without spaces (a single character is its own gram). */
function bigrams(normalized: string): Set<string> {
  const compact = normalized.replace(/\s+/g, '')
  const grams = new Set<string>()
  if (compact.length === 1) {
    grams.add(compact)
  }
  for (let i = 0; i + 1 < compact.length; i++) {
    grams.add(compact.slice(i, i + 2))
  }
  return grams
}

/** Dice coefficient over character bigrams of the normalised texts, 0–1. */
export function entrySimilarity(a: string, b: string): number {
  const na = normalizeEntry(a)
  const nb = normalizeEntry(b)
  if (na === nb) {
    return 1
  }
  const ga = bigrams(na)
  const gb = bigrams(nb)
  if (ga.size === 0 || gb.size === 0) {
    return 0
  }
  let shared = 0
  for (const g of ga) {
    if (gb.has(g)) {
      shared++
    }
  }
  return (2 * shared) / (ga.size + gb.size)
}

/** The first entry that `candidate` duplicates (same normalised text or similarity ≥ threshold), or undefined. */
export function findDuplicate(
  candidate: string,
  existing: readonly string[],
  threshold = NEAR_DUPLICATE_THRESHOLD
): string | undefined {
  const norm = normalizeEntry(candidate)
  for (const entry of existing) {
    if (normalizeEntry(entry) === norm || entrySimilarity(candidate, entry) >= threshold) {
      return entry
    }
  }
  return undefined
}

/** Collapses an entry to one line (memory files hold one entry per bullet) and caps its length. */
export function oneLine(text: string, maxChars = 500): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > maxChars ? flat.slice(0, maxChars - 1).trimEnd() + '…' : flat
}

/**
 * Turns Markdown headings inside foreign text (a log line, an LLM summary) into bold text, so that
 * text can never inject a heading into a memory file (a fake day heading would block consolidation).
 */
export function demoteHeadings(text: string): string {
  return text.replace(/^[ \t]{0,3}#{1,6}[ \t]+(.*?)[ \t#]*$/gm, (_m, title: string) => (title ? `**${title}**` : ''))
}

/**
 * The entries of a memory file: its bullet items (`- …`, `* …`, `1. …`), or, for lines written
 * by hand without a bullet, the line itself. Headings, blank lines and HTML comments are skipped.
 */
export function parseEntries(markdown: string): string[] {
  const entries: string[] = []
  let inComment = false
  for (const raw of markdown.split(/\r?\n/)) {
    const line = raw.trim()
    if (inComment) {
      inComment = !line.includes('-->')
      continue
    }
    if (line.startsWith('<!--')) {
      inComment = !line.includes('-->')
      continue
    }
    if (!line || line.startsWith('#')) {
      continue
    }
    const bullet = /^(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line)
    const text = (bullet ? bullet[1]! : line).trim()
    if (text) {
      entries.push(text)
    }
  }
  return entries
}

/** Appends one bullet to a Markdown file's text, creating the header when the file is new. */
export function appendBullet(current: string | null, header: string, entry: string): string {
  const base = current ?? `${header}\n\n`
  const sep = base === '' || base.endsWith('\n') ? '' : '\n'
  return `${base}${sep}- ${entry}\n`
}

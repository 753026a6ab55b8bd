/**
 * Template boilerplate removal for similarity work.
 *
 * Skills generated from one template (e.g. Composio's 832 "-automation" skills) share most of their
 * lines word for word; only a few lines name the service. Those shared lines say nothing about whether
 * two skills duplicate each other, yet they dominate TF-IDF cosine and chain every templated skill into
 * one giant cluster. A line found (normalised) in many documents is treated as boilerplate and left out.
 */

export interface BoilerplateOptions {
  /** A line is boilerplate when at least this many documents contain it (default 5)… */
  minDocs?: number
  /** …and at least this fraction of all documents (default 0.02). */
  minRatio?: number
}

/** Lines that carry no words (fences, rules, blank) are never counted. */
const HAS_WORD = /[\p{L}\p{N}]/u

function normaliseLine(line: string): string {
  return line.trim().replace(/\s+/g, ' ').toLowerCase()
}

/** The set of normalised lines that count as boilerplate in this corpus. */
export function findBoilerplateLines(docs: readonly string[], options: BoilerplateOptions = {}): Set<string> {
  const threshold = Math.max(options.minDocs ?? 5, Math.ceil((options.minRatio ?? 0.02) * docs.length))
  const df = new Map<string, number>()
  for (const doc of docs) {
    const seen = new Set<string>()
    for (const raw of doc.split('\n')) {
      const line = normaliseLine(raw)
      if (line === '' || !HAS_WORD.test(line) || seen.has(line)) continue
      seen.add(line)
      df.set(line, (df.get(line) ?? 0) + 1)
    }
  }
  const out = new Set<string>()
  for (const [line, n] of df) if (n >= threshold) out.add(line)
  return out
}

/** Each document without its boilerplate lines (documents of a small corpus come back unchanged). */
export function stripBoilerplate(docs: readonly string[], options: BoilerplateOptions = {}): string[] {
  const boilerplate = findBoilerplateLines(docs, options)
  if (boilerplate.size === 0) return [...docs]
  return docs.map((doc) =>
    doc
      .split('\n')
      .filter((raw) => !boilerplate.has(normaliseLine(raw)))
      .join('\n')
  )
}

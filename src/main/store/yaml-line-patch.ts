/**
 * Patching front matter line by line: a change to a top-level key that holds a one-line scalar replaces that key's
 * line and nothing else, so whatever surrounds it — a `task_directories:` list indented by another writer, comments,
 * blank lines, someone's quoting — stays byte for byte. The `yaml` package path reprints the whole document in our
 * style (`indentSeq: false` pulled `  - output_…` to column 0 on every rating). Pure; undefined whenever a change is
 * not of that kind, and the caller then reprints.
 */

/** One change: a key path and its new value (`undefined` deletes). */
export interface LineChange {
  path: readonly string[]
  value: unknown
}

/** `key:` then one scalar that ends on its line (no block indicator, flow collection, anchor, tag or comment). */
const SCALAR_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):[ \t]+(\S.*?)[ \t]*$/
const PLAIN_START = /^[^|>[\]{}&*!%@`#'",?:-]|^[-?:][^\s]/
const SINGLE_QUOTED = /^'(?:[^']|'')*'$/
const DOUBLE_QUOTED = /^"(?:[^"\\]|\\.)*"$/

function isOneLineScalar(value: string): boolean {
  if (SINGLE_QUOTED.test(value) || DOUBLE_QUOTED.test(value)) return true
  return PLAIN_START.test(value) && !value.includes(' #') && !value.includes(': ')
}

/**
 * `yaml` with each change's line replaced by `printPair(key, value)` (which must print one line), or undefined
 * when some change is not a top-level scalar key present once on one line, or the new value does not print as one.
 */
export function patchScalarLines(yaml: string, changes: readonly LineChange[], printPair: (key: string, value: unknown) => string | undefined): string | undefined {
  if (changes.length === 0) return yaml
  const lines = yaml.split('\n')
  const at = new Map<string, number>()
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!
    const colon = line.indexOf(':')
    if (colon <= 0 || line.charCodeAt(0) === 32 || line.charCodeAt(0) === 9) continue
    const key = line.slice(0, colon)
    if (at.has(key)) return undefined // a key twice: the document is not ours to guess about
    at.set(key, i)
  }
  for (const change of changes) {
    if (change.path.length !== 1 || change.value === undefined) return undefined
    const value = change.value
    if (value !== null && typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined
    const key = change.path[0]!
    const i = at.get(key)
    if (i === undefined) return undefined
    const cr = lines[i]!.endsWith('\r') ? '\r' : ''
    const m = SCALAR_LINE.exec(cr ? lines[i]!.slice(0, -1) : lines[i]!)
    if (!m || m[1] !== key || !isOneLineScalar(m[2]!)) return undefined
    // A plain scalar may go on over indented lines: only a next line that starts a new key, a comment or nothing is safe.
    const next = lines[i + 1]
    if (next !== undefined && /^[ \t]+\S/.test(next) && !/^[ \t]+#/.test(next)) return undefined
    const printed = printPair(key, value)
    if (printed === undefined || printed.includes('\n')) return undefined
    lines[i] = printed + cr
  }
  return lines.join('\n')
}

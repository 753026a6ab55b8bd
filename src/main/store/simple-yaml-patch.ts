/**
 * A fast patch for the plain front matter nearly every skill file has — what Skillbench and AGIAgent write:
 * top-level `key: scalar` lines and `key:` followed by `- item` lines, nothing else. It returns exactly the text
 * the full `yaml` package gives (patchFrontMatterYaml's own path: parse, set, print), without loading or running
 * it: that costs ~0.5 ms per file, and a curation plan rewrites hundreds of files. On anything it is not sure of
 * (comments, blank lines, nested maps, double quotes, numbers not in their shortest form, strings YAML would
 * quote differently…) it returns undefined and the caller takes the full path. Pure; a differential test
 * checks it against the full path on real and generated front matter.
 */
import { isStringFieldPath } from './skill-file-fields'

/**
 * Strings that YAML 1.1 readers (PyYAML, which upstream AGIAgent uses) would turn into something else:
 * booleans like `yes`/`off`, numbers with leading zeros, timestamps. We single-quote them on write.
 */
export const YAML11_AMBIGUOUS = new RegExp(
  [
    '^[-+]?[0-9][0-9_:.eE+-]*$', // ints (octal 0123, 1_000, sexagesimal 1:30), floats, ids
    '^[-+]?\\.[0-9_]*$',
    '^[-+]?\\.(?:inf|Inf|INF)$|^\\.(?:nan|NaN|NAN)$',
    '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:$|[Tt ][0-9])', // timestamps
    '^(?:~|null|Null|NULL|[yYnN]|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF|true|True|TRUE|false|False|FALSE)$'
  ].join('|')
)

/** A key printed as it is: plain, and never read as anything but a string. */
const SAFE_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/
const RESERVED_KEY = /^(?:null|true|false|y|n|yes|no|on|off)$/i
/**
 * Strings the `yaml` package certainly prints plain: a letter (any script), `_` or `/` first; no `: `, ` #`,
 * tab, line break or other odd character; no space or colon last; nothing a schema reads as another type.
 */
const PLAIN_FIRST = /^[\p{L}_/]/u
// eslint-disable-next-line no-control-regex
const PLAIN_BAD = /: | #|[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]|[\s:]$/u
const SURROGATE = /[\ud800-\udfff]/
/** Characters that make a single-quoted string print differently (or that this path leaves to the full one). */
// eslint-disable-next-line no-control-regex
const SINGLE_BAD = /['\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/
const SHORTEST_NUMBER = /^-?(?:0|[1-9][0-9]{0,14})(?:\.[0-9]{1,15})?$/

/** True when a string prints plain (in `yaml` and here). */
function plainOk(s: string): boolean {
  return PLAIN_FIRST.test(s) && !PLAIN_BAD.test(s) && !YAML11_AMBIGUOUS.test(s) && !SURROGATE.test(s)
}

/** Strings the `yaml` package never prints plain (its own test): it quotes them. */
const MUST_QUOTE = /^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/

/** How a string we create prints (fixQuoting's rules, then the package's); undefined when not sure. */
function newString(s: string): string | undefined {
  if (s !== '' && plainOk(s)) return s
  // '' and YAML 1.1 look-alikes are single-quoted by fixQuoting; the package quotes others that cannot be
  // plain, with single quotes (singleQuote: true) when they hold no quote characters.
  if (s !== '' && !YAML11_AMBIGUOUS.test(s) && !MUST_QUOTE.test(s)) return undefined
  if (SINGLE_BAD.test(s) || SURROGATE.test(s) || s.includes('"')) return undefined
  return `'${s}'`
}

/** How a value we create prints as one scalar; undefined when not sure. */
function newScalar(v: unknown): string | undefined {
  if (typeof v === 'string') return newString(v)
  if (typeof v === 'number') {
    // -0 prints as "0" through JSON (the yaml package writes -0): left to the full path.
    if (Object.is(v, -0)) return undefined
    const text = JSON.stringify(v)
    return Number.isFinite(v) && SHORTEST_NUMBER.test(text) ? text : undefined
  }
  if (typeof v === 'boolean') return v ? 'true' : 'false'
  return undefined
}

/** The printed lines of `key: value` for a value we create. */
function newPair(key: string, v: unknown): string[] | undefined {
  if (Array.isArray(v)) {
    if (v.length === 0) return [`${key}: []`]
    const lines = [`${key}:`]
    for (const item of v) {
      const text = newScalar(item)
      if (text === undefined) return undefined
      lines.push(`- ${text}`)
    }
    return lines
  }
  const text = newScalar(v)
  return text === undefined ? undefined : [`${key}: ${text}`]
}

/**
 * True when an existing scalar's source prints back unchanged: a plain string the package prints plain, a
 * single-quoted string without quotes inside, a number in its shortest form, or true / false. `stringy` keys
 * (strings by contract) take strings only.
 */
function keepsSource(source: string, stringy: boolean): boolean {
  if (source.startsWith("'")) {
    const inner = source.slice(1, -1)
    return source.length >= 2 && source.endsWith("'") && !SINGLE_BAD.test(inner) && !SURROGATE.test(inner)
  }
  if (plainOk(source)) return true
  if (stringy) return false
  if (source === 'true' || source === 'false') return true
  return SHORTEST_NUMBER.test(source) && JSON.stringify(Number(source)) === source
}

/**
 * The front matter with `changes` applied, exactly as patchFrontMatterYaml's full path prints it; undefined
 * when this path is not sure (the caller then takes the full path).
 */
export function patchSimpleYaml(yaml: string, changes: ReadonlyArray<{ path: readonly string[]; value: unknown }>): string | undefined {
  if (yaml === '' || !yaml.endsWith('\n') || yaml.includes('\r')) return undefined
  const lines = yaml.slice(0, -1).split('\n')
  // Each pair: its key and its lines as they print now.
  const pairs: Array<{ key: string; lines: string[] }> = []
  const seen = new Set<string>()
  for (let i = 0; i < lines.length; ) {
    const line = lines[i] as string
    const colon = line.indexOf(':')
    const key = colon > 0 ? line.slice(0, colon) : ''
    if (!SAFE_KEY.test(key) || RESERVED_KEY.test(key) || seen.has(key)) return undefined
    seen.add(key)
    const stringy = isStringFieldPath([], key)
    const rest = line.slice(colon + 1)
    i++
    if (rest === '') {
      // a block sequence (never null: `key:` alone is left to the full path)
      const pair = { key, lines: [line] }
      for (; i < lines.length && (lines[i] as string).startsWith('- '); i++) {
        if (!keepsSource((lines[i] as string).slice(2), false)) return undefined
        pair.lines.push(lines[i] as string)
      }
      if (pair.lines.length === 1 || stringy) return undefined
      pairs.push(pair)
      continue
    }
    if (!rest.startsWith(' ')) return undefined
    const source = rest.slice(1)
    if (source !== '[]' && !keepsSource(source, stringy)) return undefined
    if (source === '[]' && stringy) return undefined
    pairs.push({ key, lines: [line] })
  }
  for (const change of changes) {
    const key = change.path[0]
    if (change.path.length !== 1 || key === undefined || !SAFE_KEY.test(key) || RESERVED_KEY.test(key) || change.value === undefined) return undefined
    const printed = newPair(key, change.value)
    if (!printed) return undefined
    const at = pairs.findIndex((p) => p.key === key)
    if (at >= 0) (pairs[at] as { lines: string[] }).lines = printed
    else pairs.push({ key, lines: printed })
  }
  let out = ''
  for (const p of pairs) for (const l of p.lines) out += `${l}\n`
  return out
}

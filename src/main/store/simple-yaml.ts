/**
 * A fast reader for the plain subset of YAML that skill front matter nearly always is: block mappings of
 * `key: scalar`, nested block mappings, block sequences of scalars and one-line flow sequences of plain words.
 *
 * Why: the `yaml` package costs ~0.4 ms per small document, which makes opening 10,000 skills take seconds.
 * Anything outside the subset (block scalars, multi-line values, escapes, anchors, aliases, tags, flow maps,
 * comments after values, tabs, odd keys…) returns `undefined` and the caller uses the full YAML parser.
 * The results equal the full parser's (core schema) on everything accepted; a differential test checks it.
 * Lines are scanned by character code (no per-line regular expressions or line objects): this runs for
 * every skill file on every open.
 */
import { YAML_FORBIDDEN_KEYS as FORBIDDEN } from '../../shared/yaml-policy'
import { isStringFieldPath } from './skill-file-fields'

const INT = /^[-+]?[0-9]+$/
const FLOAT = /^[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)$/
/** Plain scalars the fast path leaves to the full parser (other number forms, indicators, comments). */
const UNSURE_PLAIN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|[-+]?0[ox]|[-?:,[\]{}#&*!|>'"%@`])|[eE][-+]?[0-9]|: | #|:$|\t/

// Control characters, BOM and non-characters: left to the full parser's rules.
// eslint-disable-next-line no-control-regex
const ODD_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufeff\ufffe\uffff]/
const SURROGATE = /[\ud800-\udfff]/
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

const SPACE = 32
const HASH = 35
const COLON = 58
const DASH = 45

/** The content lines of a front matter: indent (spaces) and text (after the indent, no line break). */
interface Lines {
  indent: number[]
  text: string[]
}

/** What scalar() and flowSeq() return when the full parser must decide (no allocation per value). */
const UNSURE: unique symbol = Symbol('unsure')
type Result = unknown

function isNullWord(s: string): boolean {
  return s === '' || s === '~' || s === 'null' || s === 'Null' || s === 'NULL'
}

/** `s` without leading and trailing spaces (spaces only: other whitespace is content in YAML). */
function trimSpaces(s: string): string {
  let a = 0
  let b = s.length
  while (a < b && s.charCodeAt(a) === SPACE) a++
  while (b > a && s.charCodeAt(b - 1) === SPACE) b--
  return a === 0 && b === s.length ? s : s.slice(a, b)
}

/** Resolves a one-line scalar as the core schema would; UNSURE when unsure. `stringy`: a string by contract. */
function scalar(raw: string, stringy: boolean): Result {
  const s = trimSpaces(raw)
  const first = s.charCodeAt(0)
  if (first === 39 /* ' */) {
    if (s.length < 2 || s.charCodeAt(s.length - 1) !== 39) return UNSURE
    const inner = s.slice(1, -1)
    if (inner.indexOf("'") < 0) return inner
    // Every quote inside must be doubled.
    for (let i = 0; i < inner.length; i++) {
      if (inner.charCodeAt(i) === 39) {
        if (inner.charCodeAt(i + 1) !== 39) return UNSURE
        i++
      }
    }
    return inner.replaceAll("''", "'")
  }
  if (first === 34 /* " */) {
    if (s.length < 2 || s.charCodeAt(s.length - 1) !== 34) return UNSURE
    const inner = s.slice(1, -1)
    if (inner.includes('"') || inner.includes('\\')) return UNSURE
    return inner
  }
  if (UNSURE_PLAIN.test(s)) return UNSURE
  if (isNullWord(s)) return null
  if (stringy) return s
  if (s === 'true' || s === 'True' || s === 'TRUE') return true
  if (s === 'false' || s === 'False' || s === 'FALSE') return false
  // Numbers start with a sign, a digit or a dot; anything else is a plain string.
  if ((first >= 48 && first <= 57) || first === 43 || first === 45 || first === 46) {
    const isInt = INT.test(s)
    if (isInt || FLOAT.test(s)) {
      const n = Number(s)
      if (!Number.isFinite(n) || (isInt && !Number.isSafeInteger(n))) return UNSURE
      return n
    }
  }
  return s
}

/** `[a, b]` with plain words only. */
function flowSeq(s: string): Result {
  const m = /^\[([^[\]{}'"#&*!|>%@`]*)\] *$/.exec(s)
  if (!m) return UNSURE
  const inner = m[1]!.trim()
  if (inner === '') return []
  const out: unknown[] = []
  for (const part of inner.split(',')) {
    const p = part.trim()
    if (p === '' || p.includes(':')) return UNSURE
    const r = scalar(p, false)
    if (r === UNSURE) return UNSURE
    out.push(r)
  }
  return out
}

/** Length of a `key:` prefix (`[A-Za-z_][A-Za-z0-9_-]*:` followed by a space or the end), or -1. */
function keyLength(text: string): number {
  const c0 = text.charCodeAt(0)
  if (!((c0 >= 65 && c0 <= 90) || (c0 >= 97 && c0 <= 122) || c0 === 95)) return -1
  let i = 1
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || c === DASH) continue
    break
  }
  if (text.charCodeAt(i) !== COLON) return -1
  if (i + 1 < text.length && text.charCodeAt(i + 1) !== SPACE) return -1
  return i
}

function startsWithDashSpace(text: string): boolean {
  return text.charCodeAt(0) === DASH && text.charCodeAt(1) === SPACE
}

/** Parses a block mapping at `indent` starting at line `start`; returns the map and the next line index. */
function mapping(lines: Lines, start: number, indent: number, parents: string[]): { value: Record<string, unknown>; next: number } | undefined {
  if (parents.length > 8) return undefined
  const { indent: indents, text: texts } = lines
  const n = texts.length
  const out: Record<string, unknown> = {}
  let i = start
  while (i < n) {
    const lineIndent = indents[i]!
    if (lineIndent < indent) break
    if (lineIndent > indent) return undefined
    const text = texts[i]!
    const k = keyLength(text)
    if (k < 0) return undefined
    const key = text.slice(0, k)
    if (FORBIDDEN.has(key) || Object.prototype.hasOwnProperty.call(out, key)) return undefined
    i++
    const rest = k + 2 <= text.length ? text.slice(k + 2) : ''
    if (trimSpaces(rest) !== '') {
      const r = rest.charCodeAt(0) === 91 /* [ */ ? flowSeq(rest) : scalar(rest, isStringFieldPath(parents, key))
      if (r === UNSURE) return undefined
      out[key] = r
      continue
    }
    // `key:` alone: a nested block, or null.
    if (i < n && startsWithDashSpace(texts[i]!) && indents[i]! >= indent) {
      const seqIndent = indents[i]!
      const items: unknown[] = []
      while (i < n && indents[i] === seqIndent && startsWithDashSpace(texts[i]!)) {
        const item = texts[i]!.slice(2)
        const c = item.charCodeAt(0)
        if (keyLength(item) >= 0 || startsWithDashSpace(item) || c === 91) return undefined
        const r = scalar(item, false)
        if (r === UNSURE) return undefined
        items.push(r)
        i++
      }
      if (i < n && indents[i]! > indent && indents[i] !== seqIndent) return undefined
      out[key] = items
    } else if (i < n && indents[i]! > indent) {
      const sub = mapping(lines, i, indents[i]!, [...parents, key])
      if (!sub) return undefined
      out[key] = sub.value
      i = sub.next
    } else {
      out[key] = null
    }
  }
  return { value: out, next: i }
}

/** Splits into content lines; undefined when a line needs the full parser (tabs, directives, indented comments…). */
function splitLines(yaml: string): Lines | undefined {
  const indent: number[] = []
  const text: string[] = []
  const len = yaml.length
  let pos = 0
  while (pos < len) {
    const begin = pos
    let end = yaml.indexOf('\n', pos)
    if (end < 0) end = len
    pos = end + 1
    let stop = end
    if (stop > begin && yaml.charCodeAt(stop - 1) === 13) stop--
    let a = begin
    while (a < stop && yaml.charCodeAt(a) === SPACE) a++
    if (a === stop) continue // blank line
    const c = yaml.charCodeAt(a)
    if (c === HASH) {
      // A comment line: fine at column 0, anything else goes to the full parser.
      if (a !== begin) return undefined
      continue
    }
    const line = yaml.slice(a, stop)
    // Whitespace other than spaces at the start (tabs, U+3000…), tabs, document markers, directives: full parser.
    if (c === 9 || c === 13 || (c > 127 && /^\s/u.test(line))) return undefined
    if (line.includes('\t') || line.startsWith('---') || line.startsWith('...') || c === 37 /* % */) return undefined
    indent.push(a - begin)
    text.push(line)
  }
  return { indent, text }
}

/** Parses simple front-matter YAML quickly; `undefined` means "use the full parser". */
export function parseSimpleYaml(yaml: string): Record<string, unknown> | undefined {
  if (ODD_CHARS.test(yaml) || (SURROGATE.test(yaml) && LONE_SURROGATE.test(yaml))) return undefined
  const lines = splitLines(yaml)
  if (!lines) return undefined
  if (lines.text.length === 0) return {}
  if (lines.indent[0] !== 0) return undefined
  const r = mapping(lines, 0, 0, [])
  if (!r || r.next !== lines.text.length) return undefined
  return r.value
}

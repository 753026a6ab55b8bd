/**
 * A fast reader for the plain subset of YAML that skill front matter nearly always is: block mappings of
 * `key: scalar`, nested block mappings, block sequences of scalars and one-line flow sequences of plain words.
 *
 * Why: the `yaml` package costs ~0.4 ms per small document, which makes opening 10,000 skills take seconds.
 * Anything outside the subset (block scalars, multi-line values, escapes, anchors, aliases, tags, flow maps,
 * comments after values, tabs, odd keys…) returns `undefined` and the caller uses the full YAML parser.
 * The results equal the full parser's (core schema) on everything accepted; a differential test checks it.
 */
import { STRING_FIELDS } from './skill-file-fields'

const KEY = /^([A-Za-z_][A-Za-z0-9_-]*):(?: (.*))?$/
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype'])
const INT = /^[-+]?[0-9]+$/
const FLOAT = /^[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)$/
/** Plain scalars the fast path leaves to the full parser (other number forms, indicators, comments). */
const UNSURE_PLAIN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|[-+]?0[ox]|[-?:,[\]{}#&*!|>'"%@`])|[eE][-+]?[0-9]|: | #|:$|\t/

// Control characters, BOM and non-characters: left to the full parser's rules.
// eslint-disable-next-line no-control-regex
const ODD_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufeff\ufffe\uffff]/
const SURROGATE = /[\ud800-\udfff]/
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

interface Line {
  indent: number
  text: string
}

type Result = { ok: true; value: unknown } | undefined

/** Resolves a one-line scalar as the core schema would; undefined when unsure. */
function scalar(raw: string, key: string | null): Result {
  const s = raw.replace(/^ +| +$/g, '')
  if (s.startsWith("'")) {
    if (s.length < 2 || !s.endsWith("'")) return undefined
    const inner = s.slice(1, -1)
    if (/'(?!')/.test(inner.replace(/''/g, ''))) return undefined
    return { ok: true, value: inner.replace(/''/g, "'") }
  }
  if (s.startsWith('"')) {
    if (s.length < 2 || !s.endsWith('"')) return undefined
    const inner = s.slice(1, -1)
    if (inner.includes('"') || inner.includes('\\')) return undefined
    return { ok: true, value: inner }
  }
  if (UNSURE_PLAIN.test(s)) return undefined
  if (key !== null && STRING_FIELDS.has(key)) {
    if (s === '' || s === '~' || s === 'null' || s === 'Null' || s === 'NULL') return { ok: true, value: null }
    return { ok: true, value: s }
  }
  if (s === '' || s === '~' || s === 'null' || s === 'Null' || s === 'NULL') return { ok: true, value: null }
  if (s === 'true' || s === 'True' || s === 'TRUE') return { ok: true, value: true }
  if (s === 'false' || s === 'False' || s === 'FALSE') return { ok: true, value: false }
  if (INT.test(s) || FLOAT.test(s)) {
    const n = Number(s)
    if (!Number.isFinite(n) || (INT.test(s) && !Number.isSafeInteger(n))) return undefined
    return { ok: true, value: n }
  }
  return { ok: true, value: s }
}

/** `[a, b]` with plain words only. */
function flowSeq(s: string): Result {
  const m = /^\[([^[\]{}'"#&*!|>%@`]*)\] *$/.exec(s)
  if (!m) return undefined
  const inner = m[1]!.trim()
  if (inner === '') return { ok: true, value: [] }
  const out: unknown[] = []
  for (const part of inner.split(',')) {
    const p = part.trim()
    if (p === '' || p.includes(':')) return undefined
    const r = scalar(p, null)
    if (!r) return undefined
    out.push(r.value)
  }
  return { ok: true, value: out }
}

/** Parses a block mapping at `indent` starting at lines[i]; returns the map and the next line index. */
function mapping(lines: Line[], start: number, indent: number, depth: number): { value: Record<string, unknown>; next: number } | undefined {
  if (depth > 8) return undefined
  const out: Record<string, unknown> = {}
  let i = start
  while (i < lines.length) {
    const line = lines[i]!
    if (line.indent < indent) break
    if (line.indent > indent) return undefined
    const m = KEY.exec(line.text)
    if (!m) return undefined
    const key = m[1]!
    if (FORBIDDEN.has(key) || Object.prototype.hasOwnProperty.call(out, key)) return undefined
    const rest = m[2]
    i++
    if (rest !== undefined && rest.trim() !== '') {
      const r = rest.startsWith('[') ? flowSeq(rest) : scalar(rest, key)
      if (!r) return undefined
      out[key] = r.value
      continue
    }
    // `key:` alone: a nested block, or null.
    const child = lines[i]
    if (child && child.text.startsWith('- ') && child.indent >= indent) {
      const seqIndent = child.indent
      const items: unknown[] = []
      while (i < lines.length && lines[i]!.indent === seqIndent && lines[i]!.text.startsWith('- ')) {
        const item = lines[i]!.text.slice(2)
        if (KEY.test(item) || item.startsWith('- ') || item.startsWith('[')) return undefined
        const r = scalar(item, null)
        if (!r) return undefined
        items.push(r.value)
        i++
      }
      if (i < lines.length && lines[i]!.indent > indent && lines[i]!.indent !== seqIndent) return undefined
      out[key] = items
    } else if (child && child.indent > indent) {
      const sub = mapping(lines, i, child.indent, depth + 1)
      if (!sub) return undefined
      out[key] = sub.value
      i = sub.next
    } else {
      out[key] = null
    }
  }
  return { value: out, next: i }
}

/** Parses simple front-matter YAML quickly; `undefined` means "use the full parser". */
export function parseSimpleYaml(yaml: string): Record<string, unknown> | undefined {
  if (ODD_CHARS.test(yaml) || (SURROGATE.test(yaml) && LONE_SURROGATE.test(yaml))) return undefined
  const lines: Line[] = []
  for (const rawLine of yaml.split('\n')) {
    const l = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine
    const text = l.trimStart()
    if (text === '' || text.startsWith('#')) {
      if (text.startsWith('#') && l.length !== text.length) return undefined
      continue
    }
    if (l.includes('\t') || text.startsWith('---') || text.startsWith('...') || text.startsWith('%')) return undefined
    lines.push({ indent: l.length - text.length, text })
  }
  if (lines.length === 0) return {}
  if (lines[0]!.indent !== 0) return undefined
  const r = mapping(lines, 0, 0, 0)
  if (!r || r.next !== lines.length) return undefined
  return r.value
}

/**
 * Three-way merges for skills changed in two places (upstream and the library; a deployed copy and the library):
 * text by lines (diff3: a region changed on one side only takes that side, a region changed on both sides
 * differently is kept twice between conflict markers, so nothing is dropped silently), and front matter by
 * top-level key (one level deeper for `metadata`; our bookkeeping `metadata.skillbench` is never merged). Pure.
 */
import type { FrontMatterChange } from '../store/skill-file'
import { lcsPairs, splitLines } from '../review/line-diff'

export interface MergeLabels {
  ours: string
  theirs: string
}

export interface TextMerge {
  text: string
  /** Regions both sides changed differently (kept between markers). */
  conflicts: number
}

const same = (x: readonly string[], y: readonly string[]): boolean => x.length === y.length && x.every((l, i) => l === y[i])

function withNewline(lines: string[]): string[] {
  const last = lines[lines.length - 1]
  if (last !== undefined && !last.endsWith('\n')) lines[lines.length - 1] = `${last}\n`
  return lines
}

/** Merges `ours` and `theirs`, both changed from `base`, line by line. */
export function mergeText(base: string, ours: string, theirs: string, labels: MergeLabels): TextMerge {
  if (ours === theirs || theirs === base) return { text: ours, conflicts: 0 }
  if (ours === base) return { text: theirs, conflicts: 0 }
  const B = splitLines(base)
  const A = splitLines(ours)
  const T = splitLines(theirs)
  const ma = new Map(lcsPairs(B, A))
  const mt = new Map(lcsPairs(B, T))
  const out: string[] = []
  let conflicts = 0
  const resolve = (b: string[], a: string[], t: string[]): void => {
    if (same(a, b)) out.push(...t)
    else if (same(t, b) || same(a, t)) out.push(...a)
    else {
      conflicts++
      out.push(`<<<<<<< ${labels.ours}\n`, ...withNewline([...a]), '=======\n', ...withNewline([...t]), `>>>>>>> ${labels.theirs}\n`)
    }
  }
  let i = 0
  let a = 0
  let t = 0
  for (let k = 0; k < B.length; k++) {
    const ka = ma.get(k)
    const kt = mt.get(k)
    if (ka === undefined || kt === undefined || ka < a || kt < t) continue
    resolve(B.slice(i, k), A.slice(a, ka), T.slice(t, kt))
    out.push(B[k]!)
    i = k + 1
    a = ka + 1
    t = kt + 1
  }
  resolve(B.slice(i), A.slice(a), T.slice(t))
  return { text: out.join(''), conflicts }
}

/** Both versions of a text kept between markers, for when there is no common base to merge from. */
export function keepBoth(ours: string, theirs: string, labels: MergeLabels): TextMerge {
  if (ours === theirs) return { text: ours, conflicts: 0 }
  const a = ours.endsWith('\n') || ours === '' ? ours : `${ours}\n`
  const t = theirs.endsWith('\n') || theirs === '' ? theirs : `${theirs}\n`
  return { text: `<<<<<<< ${labels.ours}\n${a}=======\n${t}>>>>>>> ${labels.theirs}\n`, conflicts: 1 }
}

export { hasConflictMarkers } from '../review/changes'

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b))
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical)
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])]))
  return v
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

export interface FrontMatterMerge {
  /** Changes that bring `theirs`' edits into `ours`. */
  changes: FrontMatterChange[]
  /** Keys both sides changed differently (`ours` kept). */
  conflicts: string[]
}

/**
 * The front-matter keys `theirs` changed from `base` that `ours` did not touch, as changes to apply to `ours`.
 * `metadata` is merged key by key; `metadata.skillbench` (our bookkeeping) and keys in `skip` are left out.
 */
export function mergeFrontMatter(base: Record<string, unknown>, ours: Record<string, unknown>, theirs: Record<string, unknown>, skip: readonly string[] = []): FrontMatterMerge {
  const changes: FrontMatterChange[] = []
  const conflicts: string[] = []
  const visit = (b: Record<string, unknown>, o: Record<string, unknown>, t: Record<string, unknown>, prefix: string[]): void => {
    for (const key of new Set([...Object.keys(b), ...Object.keys(o), ...Object.keys(t)])) {
      const at = [...prefix, key]
      const dotted = at.join('.')
      if (skip.includes(dotted) || dotted === 'metadata.skillbench') continue
      if (dotted === 'metadata' && (isRecord(b[key]) || b[key] === undefined) && (isRecord(o[key]) || o[key] === undefined) && (isRecord(t[key]) || t[key] === undefined)) {
        visit((b[key] as Record<string, unknown>) ?? {}, (o[key] as Record<string, unknown>) ?? {}, (t[key] as Record<string, unknown>) ?? {}, at)
        continue
      }
      if (deepEqual(t[key], b[key]) || deepEqual(t[key], o[key])) continue
      if (deepEqual(o[key], b[key])) changes.push({ path: at, value: t[key] })
      else conflicts.push(dotted)
    }
  }
  visit(base, ours, theirs, [])
  return { changes, conflicts }
}

/** The front matter without our bookkeeping, for comparing what a person or upstream wrote. */
export function withoutBookkeeping(data: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...data }
  if (isRecord(copy.metadata)) {
    const { skillbench: _ours, ...rest } = copy.metadata
    if (Object.keys(rest).length === 0) delete copy.metadata
    else copy.metadata = rest
  }
  return copy
}

/** True when two front matters say the same once our bookkeeping is set aside. */
export function sameContent(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return deepEqual(withoutBookkeeping(a), withoutBookkeeping(b))
}

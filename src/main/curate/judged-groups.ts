/**
 * Candidate pairs and groups passed through the content judge (content-judge.ts), and what a group's members have in
 * common in a person's words: the subject they share and the distinctive words they share, with the words their
 * whole family uses left out. Pure; reads the similarity index's rows, never the library.
 */
import type { Skill } from '../../shared/types'
import type { SimilarPairs } from '../text/all-pairs'
import type { TfIdfIndex } from '../text/tfidf'
import { FAMILY_MIN, type ContentJudge, type JudgeBar } from './content-judge'
import { surfaceWords, type WordTerms } from './evidence-words'
import { similarityText } from './similarity-text'

/** The pairs at or above minScore whose members the judge finds the same skill at the bar. */
export function judgedPairs(pairs: SimilarPairs, judge: ContentJudge, bar: JudgeBar, minScore: number): SimilarPairs {
  const keep: number[] = []
  for (let k = 0; k < pairs.count; k++) {
    if ((pairs.score[k] as number) >= minScore && judge.judge(pairs.a[k] as number, pairs.b[k] as number, bar).same) keep.push(k)
  }
  return {
    count: keep.length,
    a: Uint32Array.from(keep, (k) => pairs.a[k] as number),
    b: Uint32Array.from(keep, (k) => pairs.b[k] as number),
    score: Float64Array.from(keep, (k) => pairs.score[k] as number)
  }
}

/**
 * A cluster whose members do not all agree becomes the groups of members that do: greedy from the most similar
 * agreeing pair down, a member joining a group only when it agrees with every member (as merge groups form).
 */
export function splitDisagreeing(cluster: readonly number[], judge: ContentJudge, bar: JudgeBar, similarity: (a: number, b: number) => number): number[][] {
  if (judge.groupAgrees(cluster, bar)) return [[...cluster]]
  const pairs: Array<{ a: number; b: number; s: number }> = []
  for (let x = 0; x < cluster.length; x++) {
    for (let y = x + 1; y < cluster.length; y++) {
      const a = cluster[x]!
      const b = cluster[y]!
      if (judge.judge(a, b, bar).same) pairs.push({ a, b, s: similarity(a, b) })
    }
  }
  pairs.sort((p, q) => q.s - p.s || p.a - q.a || p.b - q.b)
  const groupOf = new Map<number, number[]>()
  const groups: number[][] = []
  for (const { a, b } of pairs) {
    const ga = groupOf.get(a)
    const gb = groupOf.get(b)
    if (ga && gb) continue
    if (!ga && !gb) {
      const g = [a, b]
      groups.push(g)
      groupOf.set(a, g).set(b, g)
      continue
    }
    const group = (ga ?? gb)!
    const newcomer = ga ? b : a
    if (group.every((m) => judge.judge(m, newcomer, bar).same)) {
      group.push(newcomer)
      groupOf.set(newcomer, group)
    }
  }
  return groups.map((g) => g.sort((x, y) => x - y))
}

/** What a group has in common, as evidence: the subject as written, its words, and the distinctive shared words. */
export interface SharedEvidence {
  /** The subject both announce, as one of them writes it ("Zoho Mail"); '' when their subjects are descriptions. */
  subject: string
  /** The subject words they share (lowercase). */
  subject_words: string[]
  /** Shared index terms (stems), the ones the whole family uses left out. */
  shared_terms: string[]
  /** The same as the words the texts use. */
  shared_words: string[]
}

/** The words common in a family: a term found in at least this share of its skills says nothing about two of them. */
const FAMILY_COMMON_SHARE = 0.25

/** Per family, which index terms are common in it (worked out once per family, from the index rows). */
export class FamilyTerms {
  private readonly commonFlags = new Map<number, Uint8Array>()

  /** `familyOf(i)` and `familyMembers(f)`: the content judge's families (content-judge.ts familiesOf). */
  constructor(
    private readonly index: TfIdfIndex,
    private readonly families: { familyOf(i: number): number; familyMembers(f: number): readonly number[] }
  ) {}


  /** Whether skill i's row holds `term` (rows are in term order: a binary search). */
  holds(i: number, term: string): boolean {
    const id = this.index.termId(term)
    if (id === undefined) return false
    const { rowPtr, colIdx } = this.index
    let lo = rowPtr[i] as number
    let hi = (rowPtr[i + 1] as number) - 1
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      const t = colIdx[mid] as number
      if (t === id) return true
      if (t < id) lo = mid + 1
      else hi = mid - 1
    }
    return false
  }

  /** Whether `term` is common in the family of skill i (ContentJudge's TextTerms). */
  common(i: number, term: string): boolean {
    return this.isCommon(i, term)
  }

  /** Whether `term` is common in the family of skill i. */
  isCommon(i: number, term: string): boolean {
    const id = this.index.termId(term)
    if (id === undefined) return false
    return this.commonOf(this.families.familyOf(i))[id] === 1
  }

  private commonOf(f: number): Uint8Array {
    let flags = this.commonFlags.get(f)
    if (!flags) {
      const members = this.families.familyMembers(f)
      const { rowPtr, colIdx } = this.index
      const df = new Uint32Array(this.index.vocab.length)
      for (const d of members) for (let e = rowPtr[d] as number; e < (rowPtr[d + 1] as number); e++) df[colIdx[e] as number] = (df[colIdx[e] as number] as number) + 1
      const limit = members.length < FAMILY_MIN ? Infinity : Math.max(3, FAMILY_COMMON_SHARE * members.length)
      flags = new Uint8Array(df.length)
      for (let t = 0; t < df.length; t++) if ((df[t] as number) >= limit) flags[t] = 1
      this.commonFlags.set(f, flags)
    }
    return flags
  }
}

/**
 * The evidence words of a group. `topShared(group, n, skip)` ranks the terms the members share (skipping some);
 * without a judge (judging turned off) nothing is skipped and there is no subject.
 */
export function judgedSharedWords(
  group: readonly number[],
  skills: readonly Skill[],
  judge: ContentJudge | null,
  family: FamilyTerms | null,
  n: number,
  wordTerms: WordTerms,
  topShared: (group: readonly number[], n: number, skip?: (term: string) => boolean) => string[]
): SharedEvidence {
  const skip = family ? (term: string): boolean => group.some((i) => family.isCommon(i, term)) : undefined
  // Twice as many terms for the words: Chinese characters and pairs fold into fewer words (evidence-words.ts).
  const terms = topShared(group, 2 * n, skip)
  const words = surfaceWords(terms, group.map((i) => similarityText(skills[i]!)), wordTerms)
  const subjectWords = judge && group.length >= 2 ? judge.judge(group[0]!, group[1]!, 'merge').shared : []
  return { subject: judge ? judge.sharedSubject(group) : '', subject_words: subjectWords, shared_terms: terms.slice(0, n), shared_words: words.slice(0, n) }
}

/** The English words of a reason: `both are about "Zoho Mail" and share zoho_mail, mailbox, labels`. */
export function whatTheyShare(e: Pick<SharedEvidence, 'subject' | 'subject_words' | 'shared_words'>): string {
  // the words of the subject are said already
  const said = `${e.subject} ${e.subject_words.join(' ')}`.toLowerCase()
  const words = e.shared_words.filter((w) => !said.includes(w.toLowerCase())).slice(0, 5).join(', ')
  const about = e.subject !== '' ? `both are about "${e.subject}"` : e.subject_words.length > 0 ? `both are about ${e.subject_words.slice(0, 5).join(', ')}` : ''
  if (about && words) return `${about} and share ${words}`
  return about || (words ? `they share ${words}` : 'their texts are nearly the same')
}

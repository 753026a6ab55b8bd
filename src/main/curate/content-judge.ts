/**
 * Whether two similar skills are the same skill, judged by what they are about rather than by how many words they
 * share (pure). A family of skills made from one template (832 Composio "X automation via Rube MCP" skills) shares
 * most of its words, so two different services look alike to TF-IDF; what tells them apart is the subject each skill
 * announces (its first heading, else its description) once the words the whole family puts there are left out:
 * "Gender API" is not "Genderize", "Salesforce Marketing Cloud" is not "Salesforce Service Cloud", and "Zoho Mail" is
 * "Zoho Mail" in either template. Names are not read: only the body and the description (a skill's folder and its
 * `name` can be anything and the verdict stays the same).
 *
 * Families are folders: the folder that holds a skill (its skill folder's parent for SKILL.md), widened to the
 * nearest enclosing folder with at least FAMILY_MIN skills, else the whole library. Their template words are counted
 * over the family only, so a collection's template does not hide another collection's subjects.
 */
import { words as englishStopWords } from 'natural/lib/natural/util/stopwords.js'
import { CJK_CLASS, tokenize } from '../text/tokenize'

/** A family smaller than this is too small to tell its template from its subjects: it is judged with its parent folder. */
export const FAMILY_MIN = 20
/** A subject word found in at least this share of a family's subjects (and in at least 3) is the family's template. */
const TEMPLATE_SHARE = 0.25
/** Only the start of a body is searched for its first heading (a skill announces its subject there). */
const LEAD_CHARS = 2000
/** A description used as the subject is read up to this many characters (its first sentence or two). */
const DESCRIPTION_CHARS = 300

/** How strict a verdict is: a consolidation joins skills that stay apart today, so it needs a stricter agreement. */
export type JudgeBar = 'merge' | 'consolidate'

/**
 * Heading subjects are a few words: their overlap (Jaccard) must be large and each skill must mention nearly all of
 * the other's subject words. At a merge's bar, an overlap of one half (each has a word the other's subject lacks:
 * "Connect Apps" / "Connect") is enough only when each skill's text mentions all of the other's subject words, and
 * not as a word its whole family uses ("Postgrid Verify": every skill of that family says "verify"). Description
 * subjects are sentences written freely: only the mentions are counted.
 */
const BARS: Record<JudgeBar, { jaccard: number; covered: number; halfJaccard: number; coveredLong: number }> = {
  merge: { jaccard: 0.6, covered: 0.6, halfJaccard: 0.5, coveredLong: 0.5 },
  consolidate: { jaccard: 0.6, covered: 0.75, halfJaccard: 2, coveredLong: 0.6 }
}

const STOP: ReadonlySet<string> = new Set([...englishStopWords, 'via', 'use', 'using', 'used', 'skill', 'skills', '使用', '应该', '需要', '可以', '如果', '时候', '以及', '或者', '并且'])
const CJK_RUN = new RegExp(`[${CJK_CLASS}]+`, 'u')
const WORD_OR_CJK = new RegExp(`[A-Za-z0-9]+|[${CJK_CLASS}]+`, 'gu')
// Made on first use: loading ICU's Chinese dictionary costs 30–60 ms, which a library without Chinese never needs.
let zhWords: Intl.Segmenter | undefined
const HEADING = /^#[ \t]+(.+?)[ \t#]*$/m

/** What the judge reads of a skill: never its folder or its `name`. */
export interface JudgedSkill {
  path: string
  usage_conditions: string
  body: string
}

/** The subject a skill announces: its words (lowercase), where they came from, and the text as written. */
interface Subject {
  words: string[]
  from: 'heading' | 'description'
  written: string
}

/** Lowercase words of a short text: ASCII words unstemmed, CJK runs as their dictionary words; stop words out. */
export function subjectWords(text: string): string[] {
  const out: string[] = []
  for (const piece of text.match(WORD_OR_CJK) ?? []) {
    if (CJK_RUN.test(piece)) {
      for (const segment of cjkWords(piece)) if (!out.includes(segment)) out.push(segment)
      continue
    }
    const w = asciiSubjectWord(piece)
    if (w !== null && !out.includes(w)) out.push(w)
  }
  return out
}

/** A piece of ASCII letters and digits as a subject word (lowercase), or null when it is none. */
function asciiSubjectWord(piece: string): string | null {
  const w = piece.toLowerCase()
  return w.length < 2 || /^\d+$/.test(w) || STOP.has(w) ? null : w
}

/** The subject words of one CJK run: its dictionary words of two characters or more, stop words out. */
function cjkWords(run: string): string[] {
  // Dictionary words (a subject is short: the segmenter's cost on long text does not arise), one-character ones out.
  const out: string[] = []
  zhWords ??= new Intl.Segmenter('zh', { granularity: 'word' })
  for (const { segment, isWordLike } of zhWords.segment(run)) if (isWordLike && [...segment].length >= 2 && !STOP.has(segment)) out.push(segment)
  return out
}

/** The first `# heading` of the body's start, or null. */
export function leadHeading(body: string): string | null {
  const m = HEADING.exec(body.slice(0, LEAD_CHARS))
  return m ? m[1]!.trim() : null
}

/** The families of a library's skills. */
export interface Families {
  /** Family folders ('' is the library root). */
  names: readonly string[]
  familyOf(i: number): number
  familyMembers(f: number): readonly number[]
}

/** Family of each skill: the folder holding it, widened to the nearest enclosing folder with `min` skills. */
export function familiesOf(paths: readonly string[], min = FAMILY_MIN): Families {
  const home = paths.map(homeFolder)
  const count = new Map<string, number>()
  for (const h of home) for (const a of ancestors(h)) count.set(a, (count.get(a) ?? 0) + 1)
  const names: string[] = []
  const members: number[][] = []
  const ids = new Map<string, number>()
  const family = new Int32Array(paths.length)
  home.forEach((h, i) => {
    const name = ancestors(h).find((a) => (count.get(a) ?? 0) >= min) ?? ''
    let id = ids.get(name)
    if (id === undefined) {
      id = names.length
      names.push(name)
      members.push([])
      ids.set(name, id)
    }
    family[i] = id
    members[id]!.push(i)
  })
  return { names, familyOf: (i) => family[i]!, familyMembers: (f) => members[f]! }
}

/** The folder a skill's family starts from: a SKILL.md's skill folder's parent, another file's own folder. */
function homeFolder(p: string): string {
  const parts = p.split('/')
  parts.pop()
  if (/\.md$/i.test(p) && p.split('/').pop()?.toLowerCase() === 'skill.md') parts.pop()
  return parts.join('/')
}

/** A folder and its enclosing folders, deepest first, ending with the library root (''). */
function ancestors(folder: string): string[] {
  const parts = folder === '' ? [] : folder.split('/')
  const out: string[] = []
  for (let k = parts.length; k >= 0; k--) out.push(parts.slice(0, k).join('/'))
  return out
}

/**
 * What a skill's text holds, answered from the similarity index (no text is read again): whether skill i's row has
 * the term, and whether the term is common (≥ 25 % of the skills) in skill i's family.
 */
export interface TextTerms {
  holds(i: number, term: string): boolean
  common(i: number, term: string): boolean
}

/** The verdict on a pair, with what they share in a person's words. */
export interface PairVerdict {
  same: boolean
  /** Shared subject words over all subject words (heading subjects), 0–1. */
  jaccard: number
  /** The smaller of the two shares of one skill's subject words the other skill's text mentions, 0–1. */
  covered: number
  /** Where the subjects came from. */
  from: 'heading' | 'description'
  /** The subject words both announce (lowercase). */
  shared: string[]
}

/** What judge() measures of a pair before any bar; noSubject: one of them has no subject words (never the same). */
type PairFacts = Omit<PairVerdict, 'same'> & { noSubject: boolean }

/** Pairs' measures kept at most (judge()'s memo). */
const PAIR_FACTS_LIMIT = 10_000

/**
 * The judge of one library: subjects and template words are worked out on first use, per skill and per family,
 * so a plan pays only for the skills its candidate pairs touch (and their families' subjects).
 */
export class ContentJudge {
  private readonly headings = new Map<number, Subject | null>()
  private readonly descriptions = new Map<number, Subject>()
  private readonly templates = new Map<number, FamilyTemplate>()
  /** A subject word's index terms (its stem; a Chinese word's characters and pairs). */
  private readonly wordTerms = new Map<string, string[]>()
  /**
   * What judge() finds of a pair, whatever the bar, by a·skills + b (the order matters: `shared` follows a's words).
   * A plan judges the same pairs again: its groups' evidence and shared subject (half of a 3,000-skill plan's calls).
   */
  private readonly pairFacts = new Map<number, PairFacts>()

  /** `text`: what each skill's text holds, from the similarity index (see TextTerms). */
  constructor(
    private readonly skills: readonly JudgedSkill[],
    private readonly families: Families,
    private readonly text: TextTerms
  ) {}

  /** Whether skills a and b are the same skill at the given bar. */
  judge(a: number, b: number, bar: JudgeBar): PairVerdict {
    const key = a * this.skills.length + b
    let facts = this.pairFacts.get(key)
    if (!facts) {
      facts = this.factsOf(a, b)
      // Bounded (a large library's memory is near its limit): what comes again comes soon after.
      if (this.pairFacts.size >= PAIR_FACTS_LIMIT) this.pairFacts.clear()
      this.pairFacts.set(key, facts)
    }
    const { jaccard, covered, from } = facts
    // A verdict of its own each time (callers keep `shared`: a proposal's subject words).
    const shared = facts.shared.slice()
    if (facts.noSubject) return { same: false, jaccard, covered, from, shared }
    const need = BARS[bar]
    const same =
      from === 'heading'
        ? (jaccard >= need.jaccard - 1e-9 && covered >= need.covered - 1e-9) || (jaccard >= need.halfJaccard - 1e-9 && covered === 1)
        : covered >= need.coveredLong - 1e-9
    return { same, jaccard, covered, from, shared }
  }

  /** judge()'s measures of a pair, before any bar. */
  private factsOf(a: number, b: number): PairFacts {
    let from: 'heading' | 'description' = 'heading'
    let sa = this.subject(a, 'heading')
    let sb = this.subject(b, 'heading')
    // A heading made only of template words ("# Overview") says nothing: both are then judged by their descriptions.
    if (sa.length === 0 || sb.length === 0) {
      from = 'description'
      sa = this.subject(a, 'description')
      sb = this.subject(b, 'description')
    }
    if (sa.length === 0 || sb.length === 0) return { noSubject: true, jaccard: 0, covered: 0, from, shared: [] }
    const shared = sa.filter((w) => sb.some((x) => sameWord(w, x)))
    const jaccard = shared.length / (sa.length + sb.length - shared.length)
    const covered = Math.min(this.coveredBy(sa, sb, b), this.coveredBy(sb, sa, a))
    return { noSubject: false, jaccard, covered, from, shared }
  }

  /**
   * Works out every family's template words now (each skill's heading, each family's description words) instead of
   * on first use: for a thread with time to spare before the pairs come (the verdicts are the same either way).
   */
  prepareTemplates(): void {
    for (let f = 0; f < this.families.names.length; f++) this.familyTemplate(f)
  }

  /** Whether every pair of a group is the same skill at the given bar. */
  groupAgrees(group: readonly number[], bar: JudgeBar): boolean {
    for (let x = 0; x < group.length; x++) for (let y = x + 1; y < group.length; y++) if (!this.judge(group[x]!, group[y]!, bar).same) return false
    return true
  }

  /**
   * The subject the members share as one of them writes it: the stretch of its heading from the first to the last
   * shared subject word ("Zoho Mail" of "Zoho Mail Automation via Rube MCP"), or '' when it has none to show.
   */
  sharedSubject(group: readonly number[]): string {
    if (group.length < 2) return ''
    const first = group[0]!
    let shared: Set<string> | null = null
    for (const other of group.slice(1)) {
      const v = this.judge(first, other, 'merge')
      if (v.from !== 'heading') return ''
      shared = shared === null ? new Set(v.shared) : new Set(v.shared.filter((w) => shared!.has(w)))
    }
    const written = this.headingOf(first)?.written ?? ''
    if (!shared || shared.size === 0 || written === '') return ''
    const pieces = [...written.matchAll(WORD_OR_CJK)]
    const hits = pieces.filter((m) => (CJK_RUN.test(m[0]) ? [...shared!].some((t) => m[0].includes(t)) : [...shared!].some((t) => sameWord(t, m[0].toLowerCase()))))
    if (hits.length === 0) return ''
    const start = hits[0]!.index!
    const last = hits[hits.length - 1]!
    return written.slice(start, last.index! + last[0].length)
  }

  /** A skill's subject words of the given kind, the family's template words left out. */
  private subject(i: number, kind: 'heading' | 'description'): string[] {
    const own = kind === 'heading' ? this.headingOf(i) : this.descriptionOf(i)
    if (!own) return []
    const template = this.familyTemplate(this.families.familyOf(i))
    return own.words.filter((w) => !(kind === 'heading' ? template.heading.has(w) : template.inDescriptions(w)))
  }

  private headingOf(i: number): Subject | null {
    let s = this.headings.get(i)
    if (s === undefined) {
      const heading = leadHeading(this.skills[i]!.body)
      s = heading === null ? null : { words: subjectWords(heading), from: 'heading', written: heading }
      this.headings.set(i, s)
    }
    return s
  }

  private descriptionOf(i: number): Subject {
    let s = this.descriptions.get(i)
    if (!s) {
      const description = descriptionText(this.skills[i]!)
      s = { words: subjectWords(description), from: 'description', written: description }
      this.descriptions.set(i, s)
    }
    return s
  }

  /** Words that at least TEMPLATE_SHARE of a family's headings (descriptions) announce: the family's template. */
  private familyTemplate(f: number): FamilyTemplate {
    let t = this.templates.get(f)
    if (!t) {
      const members = this.families.familyMembers(f)
      const heading = new Map<string, number>()
      for (const i of members) for (const w of this.headingOf(i)?.words ?? []) heading.set(w, (heading.get(w) ?? 0) + 1)
      // A library smaller than a family has no template to tell apart: its few skills may well share their subject.
      const limit = members.length < FAMILY_MIN ? Infinity : Math.max(3, TEMPLATE_SHARE * members.length)
      t = {
        heading: new Set([...heading].filter(([, n]) => n >= limit).map(([w]) => w)),
        inDescriptions: limit === Infinity ? () => false : descriptionTemplate(members.map((i) => descriptionText(this.skills[i]!)), limit)
      }
      this.templates.set(f, t)
    }
    return t
  }

  /**
   * The share of `words` that skill i announces too (`own`: its subject words) or whose terms its text holds
   * (its similarity-index row: template boilerplate lines are already out of it) and its family does not commonly use.
   */
  private coveredBy(words: readonly string[], own: readonly string[], i: number): number {
    let hit = 0
    for (const w of words) {
      if (own.some((o) => sameWord(o, w))) hit++
      else {
        const terms = this.termsOf(w)
        if (terms.length > 0 && terms.every((t) => this.text.holds(i, t)) && !terms.every((t) => this.text.common(i, t))) hit++
      }
    }
    return hit / words.length
  }

  private termsOf(word: string): string[] {
    let terms = this.wordTerms.get(word)
    if (!terms) {
      terms = tokenize(word)
      this.wordTerms.set(word, terms)
    }
    return terms
  }
}

/** The start of a skill's description that its subject is read from. */
function descriptionText(skill: JudgedSkill): string {
  return skill.usage_conditions.slice(0, DESCRIPTION_CHARS)
}

interface FamilyTemplate {
  heading: Set<string>
  /** Whether a description subject word is the family's template (announced by ≥ the limit of its descriptions). */
  inDescriptions(word: string): boolean
}

/**
 * Whether a word is announced by at least `limit` of the family's descriptions (`texts`), as counting every
 * description's subject words would tell, without segmenting every Chinese description: that (Intl.Segmenter, ~2 µs
 * a character) was most of a curate of 10,000 Chinese skills' judging. ASCII words are counted up front (cheap).
 * A Chinese word is counted when asked, and only where it can be: a description announces it only if the text holds
 * every pair of neighbouring characters of it, so the fewest descriptions holding one of its pairs bound its count
 * (pairs are counted in a hashed table: a collision only raises a bound); below the limit the answer is no, else the
 * descriptions that contain the word are segmented (the runs holding it) and counted exactly.
 */
export function descriptionTemplate(texts: readonly string[], limit: number): (word: string) => boolean {
  const ascii = new Map<string, number>()
  let pairs = 0
  for (const text of texts) {
    const seen = new Set<string>()
    for (const piece of text.match(WORD_OR_CJK) ?? []) {
      if (CJK_RUN.test(piece)) {
        pairs += piece.length
        continue
      }
      const w = asciiSubjectWord(piece)
      if (w !== null && !seen.has(w)) {
        seen.add(w)
        ascii.set(w, (ascii.get(w) ?? 0) + 1)
      }
    }
  }
  const pairCounts = pairs > 0 ? countPairs(texts, pairs) : null
  const answers = new Map<string, boolean>()
  const runWords = new Map<string, string[]>()
  return (word) => {
    if (!CJK_RUN.test(word)) return (ascii.get(word) ?? 0) >= limit
    let answer = answers.get(word)
    if (answer === undefined) {
      answer = pairCounts !== null && pairCounts.bound(word) >= limit && exactCount(texts, word, runWords, limit) >= limit
      answers.set(word, answer)
    }
    return answer
  }
}

/** How many of `texts` announce the CJK `word` (up to `limit`: enough to answer), segmenting only the runs holding it. */
function exactCount(texts: readonly string[], word: string, runWords: Map<string, string[]>, limit: number): number {
  let n = 0
  for (const text of texts) {
    if (!text.includes(word)) continue
    for (const piece of text.match(WORD_OR_CJK) ?? []) {
      if (!piece.includes(word)) continue
      let words = runWords.get(piece)
      if (!words) {
        words = cjkWords(piece)
        runWords.set(piece, words)
      }
      if (words.includes(word)) {
        n++
        break
      }
    }
    if (n >= limit) break
  }
  return n
}

/**
 * Texts holding each pair of neighbouring code units from U+1100 up (every CJK character, Hangul jamo included, and
 * surrogates), in a hashed table: a collision, or a pair of other characters, only raises a bound.
 */
function countPairs(texts: readonly string[], pairs: number): { bound(word: string): number } {
  let size = 1024
  while (size < 2 * pairs && size < 1 << 21) size *= 2
  const mask = size - 1
  const count = new Uint32Array(size)
  const lastText = new Int32Array(size).fill(-1)
  const slot = (a: number, b: number): number => (Math.imul(a, 0x9e3779b1) ^ b) & mask
  texts.forEach((text, t) => {
    for (let k = 0; k + 1 < text.length; k++) {
      const a = text.charCodeAt(k)
      if (a < 0x1100) continue
      const b = text.charCodeAt(k + 1)
      if (b < 0x1100) continue
      const h = slot(a, b)
      if (lastText[h] !== t) {
        lastText[h] = t
        count[h] = count[h]! + 1
      }
    }
  })
  return {
    bound(word) {
      let min = Infinity
      for (let k = 0; k + 1 < word.length; k++) min = Math.min(min, count[slot(word.charCodeAt(k), word.charCodeAt(k + 1))]!)
      return min
    }
  }
}

/**
 * The part of a word its other forms share: all of a short word, else all but its last 3 letters and at least 5
 * ("deploying" → "deploy", which "deployment" starts with too; "agiled" and "agility" stay apart).
 */
function wordRoot(word: string): string {
  return word.length < 5 ? word : word.slice(0, Math.max(5, word.length - 3))
}

/** Whether two lowercase words are forms of one word: one starts with the root of the other. */
export function sameWord(a: string, b: string): boolean {
  if (a === b) return true
  if (a.length < 5 || b.length < 5) return false
  const [short, long] = a.length <= b.length ? [a, b] : [b, a]
  return long.startsWith(wordRoot(short))
}

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
const ZH_WORDS = new Intl.Segmenter('zh', { granularity: 'word' })
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

/** Lowercase words of a short text: ASCII words unstemmed, CJK runs as their character pairs; stop words out. */
export function subjectWords(text: string): string[] {
  const out: string[] = []
  for (const piece of text.match(WORD_OR_CJK) ?? []) {
    if (CJK_RUN.test(piece)) {
      // Dictionary words (a subject is short: the segmenter's cost on long text does not arise), one-character ones out.
      for (const { segment, isWordLike } of ZH_WORDS.segment(piece)) if (isWordLike && [...segment].length >= 2 && !STOP.has(segment) && !out.includes(segment)) out.push(segment)
      continue
    }
    const w = piece.toLowerCase()
    if (w.length < 2 || /^\d+$/.test(w) || STOP.has(w) || out.includes(w)) continue
    out.push(w)
  }
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

/**
 * The judge of one library: subjects and template words are worked out on first use, per skill and per family,
 * so a plan pays only for the skills its candidate pairs touch (and their families' subjects).
 */
export class ContentJudge {
  private readonly subjects = new Map<number, { heading: Subject | null; description: Subject }>()
  private readonly templates = new Map<number, { heading: Set<string>; description: Set<string> }>()
  /** A subject word's index terms (its stem; a Chinese word's characters and pairs). */
  private readonly wordTerms = new Map<string, string[]>()

  /** `text`: what each skill's text holds, from the similarity index (see TextTerms). */
  constructor(
    private readonly skills: readonly JudgedSkill[],
    private readonly families: Families,
    private readonly text: TextTerms
  ) {}

  /** Whether skills a and b are the same skill at the given bar. */
  judge(a: number, b: number, bar: JudgeBar): PairVerdict {
    let from: 'heading' | 'description' = 'heading'
    let sa = this.subject(a, 'heading')
    let sb = this.subject(b, 'heading')
    // A heading made only of template words ("# Overview") says nothing: both are then judged by their descriptions.
    if (sa.length === 0 || sb.length === 0) {
      from = 'description'
      sa = this.subject(a, 'description')
      sb = this.subject(b, 'description')
    }
    if (sa.length === 0 || sb.length === 0) return { same: false, jaccard: 0, covered: 0, from, shared: [] }
    const shared = sa.filter((w) => sb.some((x) => sameWord(w, x)))
    const jaccard = shared.length / (sa.length + sb.length - shared.length)
    const covered = Math.min(this.coveredBy(sa, sb, b), this.coveredBy(sb, sa, a))
    const need = BARS[bar]
    const same =
      from === 'heading'
        ? (jaccard >= need.jaccard - 1e-9 && covered >= need.covered - 1e-9) || (jaccard >= need.halfJaccard - 1e-9 && covered === 1)
        : covered >= need.coveredLong - 1e-9
    return { same, jaccard, covered, from, shared }
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
    const written = this.subjects.get(first)?.heading?.written ?? ''
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
    const own = this.rawSubjects(i)[kind]
    if (!own) return []
    const template = this.familyTemplate(this.families.familyOf(i))[kind]
    return own.words.filter((w) => !template.has(w))
  }

  private rawSubjects(i: number): { heading: Subject | null; description: Subject } {
    let s = this.subjects.get(i)
    if (!s) {
      const skill = this.skills[i]!
      const heading = leadHeading(skill.body)
      const description = skill.usage_conditions.slice(0, DESCRIPTION_CHARS)
      s = {
        heading: heading === null ? null : { words: subjectWords(heading), from: 'heading', written: heading },
        description: { words: subjectWords(description), from: 'description', written: description }
      }
      this.subjects.set(i, s)
    }
    return s
  }

  /** Words that at least TEMPLATE_SHARE of a family's headings (descriptions) announce: the family's template. */
  private familyTemplate(f: number): { heading: Set<string>; description: Set<string> } {
    let t = this.templates.get(f)
    if (!t) {
      const members = this.families.familyMembers(f)
      const heading = new Map<string, number>()
      const description = new Map<string, number>()
      for (const i of members) {
        const s = this.rawSubjects(i)
        for (const w of s.heading?.words ?? []) heading.set(w, (heading.get(w) ?? 0) + 1)
        for (const w of s.description.words) description.set(w, (description.get(w) ?? 0) + 1)
      }
      // A library smaller than a family has no template to tell apart: its few skills may well share their subject.
      const limit = members.length < FAMILY_MIN ? Infinity : Math.max(3, TEMPLATE_SHARE * members.length)
      const common = (m: Map<string, number>): Set<string> => new Set([...m].filter(([, n]) => n >= limit).map(([w]) => w))
      t = { heading: common(heading), description: common(description) }
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

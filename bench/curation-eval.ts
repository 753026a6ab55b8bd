/**
 * Curation judged against the labelled sets of bench/labels/curation-groups.json (docs/CURATION.md, "Labelled sets"):
 * the plan of each real library is computed in memory (nothing is written; the data is read in place), and its merge
 * and consolidate groups are scored per split, with the skills' names as they are or hidden (every skill's folder,
 * `name`/title and id replaced by a neutral id, so only content can be judged). Used by the bench and the test.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Skill } from '../src/shared/types'
import { buildPlan } from '../src/main/curate/proposals'
import { loadedSkillText, openLibrary } from '../src/main/store/library'

export interface LabelledGroup {
  label: 'same' | 'different' | 'unclear'
  members: string[]
  reason: string
}

interface LabelFile {
  libraries: Array<{ id: string; path: string }>
  splits: Array<{ id: string; about: string; prefix: string }>
  groups: LabelledGroup[]
}

export const LABELS_FILE = path.join(__dirname, 'labels', 'curation-groups.json')

export function readLabels(file = LABELS_FILE): LabelFile {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as LabelFile
}

/** Scores of one split. */
export interface SplitScore {
  split: string
  /** Proposed groups judged right / wrong / left out (a pair labelled unclear), per kind. */
  merge: { right: number; wrong: number; unclear: number }
  consolidate: { right: number; wrong: number; unclear: number }
  /** Right / (right + wrong) over both kinds (1 when nothing was proposed). */
  precision: number
  /** Labelled same-skill groups found inside one proposal, of all of them. */
  found: number
  sameGroups: number
  recall: number
  /** What was wrong (proposed together but not labelled the same) and what was missed, as label paths. */
  wrongGroups: string[][]
  missed: string[][]
}

export interface EvalResult {
  hideNames: boolean
  judgeContent: boolean
  splits: SplitScore[]
  /** Milliseconds spent building the plans. */
  planMs: number
}

/** A skill's key in the labels: its folder for a SKILL.md, its file otherwise, relative to the real data root. */
function labelKey(libraryPath: string, skillPath: string): string {
  const rel = path.posix.join(libraryPath, skillPath)
  return rel.endsWith('/SKILL.md') ? rel.slice(0, -'/SKILL.md'.length) : rel
}

/** The same library with every skill's folder (or file name), name, title and id replaced by a neutral id. */
function hideNames(skills: Skill[], texts: Map<string, string>): { skills: Skill[]; texts: Map<string, string>; original: Map<string, string> } {
  const original = new Map<string, string>()
  const out = new Map<string, string>()
  const hidden = skills.map((s, i) => {
    const id = `s${String(i).padStart(4, '0')}`
    const parts = s.path.split('/')
    if (parts[parts.length - 1] === 'SKILL.md' && parts.length >= 2) parts[parts.length - 2] = id
    else parts[parts.length - 1] = `skill_${id}.md`
    const p = parts.join('/')
    original.set(p, s.path)
    const text = (texts.get(s.path) ?? '').replace(/^(name|title|skill_id):.*$/gm, (_, key: string) => `${key}: ${key === 'skill_id' ? `'${id}'` : id}`)
    out.set(p, text)
    return { ...s, path: p, skill_id: id, title: id, ...(s.name !== undefined ? { name: id } : {}) }
  })
  return { skills: hidden, texts: out, original }
}

/** The merge and consolidate groups of one library's plan, as label keys. */
async function proposedGroups(realRoot: string, libraryPath: string, opts: { hideNames: boolean; judgeContent: boolean }): Promise<Array<{ kind: string; keys: string[] }>> {
  const library = await openLibrary(path.join(realRoot, libraryPath))
  const all = await library.list()
  let skills = all.skills.filter((s) => !s.legacy)
  let texts = new Map<string, string>()
  for (const s of skills) texts.set(s.path, loadedSkillText(s) ?? (await library.readRaw(s.path)).text)
  let original = new Map(skills.map((s) => [s.path, s.path]))
  if (opts.hideNames) ({ skills, texts, original } = hideNames(skills, texts))
  const plan = await buildPlan({
    skills,
    texts,
    existingPaths: new Set(skills.map((s) => s.path)),
    now: new Date('2026-12-01T00:00:00Z'),
    settings: { judgeContent: opts.judgeContent, protectEdited: false }
  })
  return plan.proposals
    .filter((p) => p.kind === 'merge' || p.kind === 'consolidate')
    .map((p) => ({ kind: p.kind, keys: p.members.map((m) => labelKey(libraryPath, original.get(m.path) ?? m.path)).sort() }))
}

/** Scores every split of the labels on the real data at realRoot. */
export async function evaluateCuration(realRoot: string, opts: { hideNames: boolean; judgeContent: boolean }, labels = readLabels()): Promise<EvalResult> {
  const started = performance.now()
  const proposals = (await Promise.all(labels.libraries.map((l) => proposedGroups(realRoot, l.path, opts)))).flat()
  const planMs = performance.now() - started
  const pairLabel = new Map<string, LabelledGroup['label']>()
  const pairKey = (a: string, b: string): string => (a < b ? `${a}\n${b}` : `${b}\n${a}`)
  for (const g of labels.groups) for (let x = 0; x < g.members.length; x++) for (let y = x + 1; y < g.members.length; y++) pairLabel.set(pairKey(g.members[x]!, g.members[y]!), g.label)
  // A group belongs to the first split whose prefix all its members have (the last split's '' takes the rest).
  const splitOf = (keys: readonly string[]): string => labels.splits.find((s) => keys.every((k) => k.startsWith(s.prefix)))!.id
  const splits = labels.splits.map((s): SplitScore => ({ split: s.id, merge: { right: 0, wrong: 0, unclear: 0 }, consolidate: { right: 0, wrong: 0, unclear: 0 }, precision: 1, found: 0, sameGroups: 0, recall: 1, wrongGroups: [], missed: [] }))
  const score = (id: string): SplitScore => splits.find((s) => s.split === id)!
  for (const p of proposals) {
    const labelsOf: Array<LabelledGroup['label'] | undefined> = []
    for (let x = 0; x < p.keys.length; x++) for (let y = x + 1; y < p.keys.length; y++) labelsOf.push(pairLabel.get(pairKey(p.keys[x]!, p.keys[y]!)))
    const s = score(splitOf(p.keys))
    const tally = p.kind === 'merge' ? s.merge : s.consolidate
    // Right only when every pair is labelled the same skill; a pair never labelled counts as wrong (and is listed,
    // so that it gets a label).
    if (labelsOf.every((l) => l === 'same')) tally.right++
    else if (labelsOf.some((l) => l === 'different' || l === undefined)) {
      tally.wrong++
      s.wrongGroups.push(p.keys)
    } else tally.unclear++
  }
  for (const g of labels.groups) {
    if (g.label !== 'same') continue
    const s = score(splitOf(g.members))
    s.sameGroups++
    if (proposals.some((p) => g.members.every((m) => p.keys.includes(m)))) s.found++
    else s.missed.push(g.members)
  }
  for (const s of splits) {
    const right = s.merge.right + s.consolidate.right
    const judged = right + s.merge.wrong + s.consolidate.wrong
    s.precision = judged === 0 ? 1 : right / judged
    s.recall = s.sameGroups === 0 ? 1 : s.found / s.sameGroups
  }
  return { hideNames: opts.hideNames, judgeContent: opts.judgeContent, splits, planMs }
}

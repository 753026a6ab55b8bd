/**
 * How two lines of history join, file by file. Pure: the caller hands in the two diffs from the common commit
 * and, for the files both sides changed, their texts.
 *
 * Rule (docs: "Share a library with your team"): a file only one side changed takes that side. A file both sides
 * changed: team ledgers keep every line of both; a skill file merges its counters always and its written fields
 * when only one side wrote them; otherwise **the remote's version lands** and the local change becomes a
 * proposal to review (with conflict markers only inside the proposal, never in a live file).
 */
import type { TreeDiffEntry } from './git-io'
import { mergeSkillFile, type Rating } from './skill-merge'
import { addedLines, ratingsOf, unionLines } from './team-ledger'
import { isTeamLedgerPath } from '../store/team-ledger-files'

/** A path whose merged version differs from the local commit's: the blob to put there (null = remove). */
export interface TakeEntry {
  path: string
  oid: string | null
  mode: string
}

/** A path both sides changed differently: the blob ids on each side (null = absent). */
export interface BothEntry {
  path: string
  base: string | null
  ours: string | null
  theirs: string | null
  theirsMode: string
  oursMode: string
}

/** Splits the paths by who changed them. Pure. */
export function classify(oursDiff: readonly TreeDiffEntry[], theirsDiff: readonly TreeDiffEntry[]): { take: TakeEntry[]; both: BothEntry[] } {
  const mine = new Map(oursDiff.map((e) => [e.path, e]))
  const take: TakeEntry[] = []
  const both: BothEntry[] = []
  for (const t of theirsDiff) {
    const o = mine.get(t.path)
    if (!o) {
      take.push({ path: t.path, oid: t.toOid, mode: t.toMode })
      continue
    }
    if (o.toOid === t.toOid) continue // the same change on both sides
    both.push({ path: t.path, base: t.fromOid, ours: o.toOid, theirs: t.toOid, theirsMode: t.toMode, oursMode: o.toMode })
  }
  return { take, both }
}

export type Resolution =
  /** Write this text (or these bytes) at the path; no review needed. */
  | { path: string; kind: 'merged'; text: string }
  /**
   * The remote's version lands (`landed`: its text with merged counters, null when the remote removed the file,
   * or `landedOid` when it lands as it is); the local change goes to review.
   */
  | { path: string; kind: 'conflict'; landed: string | null; landedOid?: string | null; local: string | null; base: string | null; remote: string | null; proposal: string | null; markers: number }

/** Text of a blob when it is UTF-8 without NUL bytes, else null. */
export function blobText(bytes: Buffer | undefined): string | null {
  if (!bytes || bytes.includes(0)) return null
  const text = bytes.toString('utf8')
  return Buffer.byteLength(text) === bytes.length ? text : null
}

/**
 * Resolves every path both sides changed. `blobs` holds each side's blob by id; `ledgerAdds` gives the team
 * ledger lines each side added since the base (ratings come from there).
 */
export function resolveBoth(
  both: readonly BothEntry[],
  blobs: ReadonlyMap<string, Buffer>,
  ledgerAdds: { ours: readonly string[]; theirs: readonly string[] },
  labels: { ours: string; theirs: string }
): Resolution[] {
  const ratings = { ours: ratingsOf(ledgerAdds.ours), theirs: ratingsOf(ledgerAdds.theirs) }
  const out: Resolution[] = []
  const text = (oid: string | null): string | null => (oid === null ? null : blobText(blobs.get(oid)))
  for (const e of both) {
    const [b, o, t] = [text(e.base), text(e.ours), text(e.theirs)]
    if (isTeamLedgerPath(e.path) && o !== null && t !== null) {
      out.push({ path: e.path, kind: 'merged', text: unionLines(b ?? '', o, t) })
      continue
    }
    if (b !== null && o !== null && t !== null) {
      const id = skillIdOf(o) ?? skillIdOf(t)
      const r: { ours: Rating[]; theirs: Rating[] } = { ours: (id && ratings.ours.get(id)) || [], theirs: (id && ratings.theirs.get(id)) || [] }
      const m = mergeSkillFile(e.path, { base: b, ours: o, theirs: t }, r, labels)
      if (m.kind === 'merged') {
        out.push({ path: e.path, kind: 'merged', text: m.text })
        continue
      }
      if (m.kind === 'conflict') {
        out.push({ path: e.path, kind: 'conflict', landed: m.text, local: o, base: b, remote: t, proposal: m.proposal, markers: m.markers })
        continue
      }
    }
    // Anything else (a removal on one side, a file that is not a skill, binary content): the remote's version
    // lands as it is; the local one is kept for review when it is text (and in git history in every case).
    out.push({ path: e.path, kind: 'conflict', landed: null, landedOid: e.theirs, local: o, base: b, remote: t, proposal: o, markers: 0 })
  }
  return out
}

/** The team ledger lines each side added since the base, from the ledger files' texts. */
export function ledgerAdditions(files: ReadonlyArray<{ base: string; ours: string; theirs: string }>): { ours: string[]; theirs: string[] } {
  const ours: string[] = []
  const theirs: string[] = []
  for (const f of files) {
    ours.push(...addedLines(f.base, f.ours))
    theirs.push(...addedLines(f.base, f.theirs))
  }
  return { ours, theirs }
}

/** A skill file's stored id (top-level `skill_id`, or `metadata.skillbench.skill_id`), found by a light scan. */
export function skillIdOf(text: string): string | null {
  const fm = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---/.exec(text)
  if (!fm) return null
  const m = /^\s*skill_id:\s*['"]?([0-9]{1,20})['"]?\s*$/m.exec(fm[1]!)
  return m ? m[1]! : null
}

/** A skill's title (`title` or `name`) by a light scan of its front matter. */
export function skillTitleOf(text: string): string | null {
  const fm = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---/.exec(text)
  if (!fm) return null
  const m = /^(?:title|name):\s*(.+)$/m.exec(fm[1]!)
  return m ? m[1]!.trim().replace(/^(['"])(.*)\1$/, '$2') : null
}

/**
 * The team ledger: `.skillbench/team/<clone id>.jsonl`, one append-only file per clone of the library (a
 * "machine"), committed and shared. Each line is a fact of that machine: a use of skills or a rating. Only its
 * own machine ever appends to a file, so files never conflict in git; a merge that meets two versions of one
 * file (a copied clone id) keeps the union of their lines.
 *
 * The file format (paths, lines, clone ids) is store/team-ledger-files.ts; this module shares and merges them.
 *
 * Each line carries `n`, the record's position in the machine's local ledger history: the export after a crash
 * starts after the last line that reached the file, so a fact is never shared twice or skipped.
 */
import { randomBytes } from 'node:crypto'
import type { LedgerRecord } from '../store/ledger'
import type { Rating } from './skill-merge'
import { parseTeamLine, teamLines } from '../store/team-ledger-files'

/** A new clone id: 12 hex digits. */
export function newCloneId(): string {
  return randomBytes(6).toString('hex')
}

/** The highest `n` in a team ledger's text (-1 when none). */
export function lastExported(text: string): number {
  let last = -1
  for (const line of teamLines(text)) {
    const r = parseTeamLine(line)
    if (r && r.n > last) last = r.n
  }
  return last
}

/**
 * The local records to share, as team ledger lines: uses and ratings of the local history after position
 * `after`. `history` is the local ledger history, oldest first; positions count only uses and ratings.
 */
export function exportLines(history: readonly LedgerRecord[], after: number): { lines: string; count: number; uses: number; ratings: Array<{ id: string; rating: number }> } {
  let n = -1
  let out = ''
  let count = 0
  let uses = 0
  const ratings: Array<{ id: string; rating: number }> = []
  for (const r of history) {
    if (r.t === 'use') {
      n++
      if (n <= after) continue
      out += JSON.stringify({ n, t: 'use', ids: r.ids, at: r.at }) + '\n'
      count++
      uses += r.ids.length
    } else if (r.t === 'act' && r.what === 'rate' && typeof r.rating === 'number') {
      n++
      if (n <= after) continue
      out += JSON.stringify({ n, t: 'rate', id: r.id, rating: r.rating, at: r.at }) + '\n'
      count++
      ratings.push({ id: r.id, rating: r.rating })
    }
  }
  return { lines: out, count, uses, ratings }
}

/** Two versions of one team ledger merged: the base's lines, then each side's new lines once. Pure. */
export function unionLines(base: string, ours: string, theirs: string): string {
  const seen = new Set<string>()
  const out: string[] = []
  for (const text of [base, ours, theirs]) {
    for (const line of teamLines(text)) {
      if (seen.has(line)) continue
      seen.add(line)
      out.push(line)
    }
  }
  return out.length ? out.join('\n') + '\n' : ''
}

/** The lines of `side` that `base` does not have: what that side added since. */
export function addedLines(base: string, side: string): string[] {
  const had = new Set(teamLines(base))
  return teamLines(side).filter((l) => !had.has(l))
}

/** Ratings per skill id from team ledger lines. */
export function ratingsOf(lines: Iterable<string>): Map<string, Rating[]> {
  const out = new Map<string, Rating[]>()
  for (const line of lines) {
    const r = parseTeamLine(line)
    if (r?.t !== 'rate') continue
    const list = out.get(r.id) ?? []
    list.push({ at: r.at, rating: r.rating })
    out.set(r.id, list)
  }
  return out
}

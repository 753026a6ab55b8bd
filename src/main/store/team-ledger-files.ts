/**
 * The team ledger's files: `.skillbench/team/<clone id>.jsonl`, one append-only file per clone of a library that
 * is shared through git (sync writes them; see sync/team-ledger.ts). Each line is a fact of that machine: a use of
 * skills or a rating. The format lives here, beside the local ledger's, because more than sync reads it: the usage
 * report counts the other machines' uses.
 */
import { listContained, readContainedText } from './contained'
import { timedRecordOf, type UseRecord } from './ledger'

export const TEAM_DIR_REL = '.skillbench/team'
/** Where sync keeps this machine's clone id (never shared: the folder is in the library's .gitignore). */
export const SYNC_STATE_REL = '.skillbench/sync/state.json'

export type TeamRecord =
  | { n: number; t: 'use'; ids: string[]; at: string }
  | { n: number; t: 'rate'; id: string; rating: number; at: string }

export function teamLedgerRel(cloneId: string): string {
  return `${TEAM_DIR_REL}/${cloneId}.jsonl`
}

export function isTeamLedgerPath(rel: string): boolean {
  return rel.startsWith(`${TEAM_DIR_REL}/`) && rel.endsWith('.jsonl') && !rel.slice(TEAM_DIR_REL.length + 1).includes('/')
}

export function isCloneId(v: string): boolean {
  return /^[0-9a-f]{12}$/.test(v)
}

/** One team ledger line, or null when it is not one we know. Pure. */
export function parseTeamLine(line: string): TeamRecord | null {
  const r = timedRecordOf(line)
  if (!r || typeof r.n !== 'number') return null
  if (r.t === 'use' && Array.isArray(r.ids) && r.ids.every((x) => typeof x === 'string')) return { n: r.n, t: 'use', ids: r.ids as string[], at: r.at }
  if (r.t === 'rate' && typeof r.id === 'string' && typeof r.rating === 'number' && Number.isFinite(r.rating)) return { n: r.n, t: 'rate', id: r.id, rating: r.rating, at: r.at }
  return null
}

/** The complete lines of a team ledger's text. */
export function teamLines(text: string): string[] {
  const lines = text.split('\n')
  lines.pop() // the part after the last newline: empty, or an unterminated tail
  return lines.filter((l) => l !== '')
}

/** This machine's clone id, read only (null when this clone never synced). */
async function ownCloneId(root: string): Promise<string | null> {
  const text = await readContainedText(root, SYNC_STATE_REL).catch(() => null)
  if (!text) return null
  try {
    const clone = (JSON.parse(text) as { clone?: unknown }).clone
    return typeof clone === 'string' && isCloneId(clone) ? clone : null
  } catch {
    return null
  }
}

/** Largest team ledger read (a bigger one is reported, not read). */
const TEAM_FILE_MAX_BYTES = 64 * 1024 * 1024

/**
 * The uses the other machines of a shared library recorded (their team ledgers), `via: 'team'`. This machine's own
 * file is left out: its lines are copies of the local ledger's, which the caller reads already. Reads only.
 */
export async function readTeamUses(root: string): Promise<{ uses: UseRecord[]; problems: string[] }> {
  const uses: UseRecord[] = []
  const problems: string[] = []
  let names: string[]
  try {
    names = (await listContained(root, TEAM_DIR_REL)).filter((n) => isTeamLedgerPath(`${TEAM_DIR_REL}/${n}`)).sort()
  } catch (err) {
    return { uses, problems: [`${TEAM_DIR_REL}: ${(err as Error).message}`] }
  }
  if (names.length === 0) return { uses, problems }
  const own = await ownCloneId(root)
  for (const name of names) {
    if (own !== null && name === `${own}.jsonl`) continue
    const rel = `${TEAM_DIR_REL}/${name}`
    let text: string | null
    try {
      text = await readContainedText(root, rel, { maxBytes: TEAM_FILE_MAX_BYTES })
    } catch (err) {
      problems.push(`${rel}: ${(err as Error).message}`)
      continue
    }
    if (!text) continue
    for (const line of teamLines(text)) {
      const r = parseTeamLine(line)
      if (r?.t === 'use') uses.push({ ids: r.ids, at: r.at, via: 'team' })
    }
  }
  return { uses, problems }
}

/**
 * A person's rejections, kept apart from the plan (`.skillbench/rejections.jsonl`, JSON lines appended under the
 * library lock; an undone rejection leaves by a rewrite of the file without it, atomic, under the same lock): a
 * recomputed plan replaces its proposals, a rejection outlives them. Each line holds the
 * proposal's fingerprint — its kind, and its members' ids and content hashes — so the same proposal computed again
 * is rejected again, and one whose skills changed is new and waits for review (issue 36).
 */
import { createHash } from 'node:crypto'
import type { Proposal, ProposalKind, ProposalMember } from '../../shared/types'
import { appendContained, readContained, writeContained } from '../store/contained'
import { STATE_DIR } from './journal'

export const REJECTIONS_REL = `${STATE_DIR}/rejections.jsonl`
/** A larger file is not read (it is reported): thousands of rejections take a few hundred KB. */
const MAX_BYTES = 64 * 1024 * 1024

/** One rejection as the file keeps it. */
export interface RejectionRecord {
  fingerprint: string
  proposal_id: string
  kind: ProposalKind
  members: ProposalMember[]
  at: string
  by: string
}

/** The fingerprint of a proposal of `kind` over these skills as they are now (order does not matter). Pure. */
export function proposalFingerprint(kind: ProposalKind, members: readonly { skill_id: string; hash: string }[]): string {
  const key = [kind, ...members.map((m) => `${m.skill_id}:${m.hash}`).sort()].join('\n')
  return createHash('sha256').update(key).digest('hex').slice(0, 24)
}

function isRecord(v: unknown): v is RejectionRecord {
  if (typeof v !== 'object' || v === null) return false
  const r = v as Record<string, unknown>
  return typeof r.fingerprint === 'string' && typeof r.proposal_id === 'string' && typeof r.kind === 'string' && typeof r.at === 'string' && typeof r.by === 'string' && Array.isArray(r.members)
}

/** Every rejection recorded, oldest first; lines that are not records (a torn last line) are skipped. Only reads. */
export async function readRejections(root: string): Promise<RejectionRecord[]> {
  const bytes = await readContained(root, REJECTIONS_REL, { maxBytes: MAX_BYTES })
  if (!bytes) return []
  const out: RejectionRecord[] = []
  for (const line of bytes.toString('utf8').split('\n')) {
    if (!line) continue
    try {
      const v: unknown = JSON.parse(line)
      if (isRecord(v)) out.push(v)
    } catch {
      // a line cut by a crash: the rejection it held was never reported as done
    }
  }
  return out
}

/** Records a rejection, durable before it returns (call under the library lock). */
export async function appendRejection(root: string, record: RejectionRecord): Promise<void> {
  await appendContained(root, REJECTIONS_REL, JSON.stringify(record) + '\n', { fsync: true })
}

/**
 * Takes a fingerprint out of the rejections (a person undid the rejection): the file is written again without its
 * lines, atomically (temp + fsync + rename), so a crash leaves it either whole as it was or whole without them.
 * Call under the library lock (every append holds it too: none is lost). Returns how many lines it took out.
 */
export async function dropRejection(root: string, fingerprint: string): Promise<number> {
  const bytes = await readContained(root, REJECTIONS_REL, { maxBytes: MAX_BYTES })
  if (!bytes) return 0
  const kept: string[] = []
  let dropped = 0
  for (const line of bytes.toString('utf8').split('\n')) {
    if (!line) continue
    let v: unknown
    try {
      v = JSON.parse(line)
    } catch {
      continue // a line cut by a crash: it never held a rejection reported as done
    }
    if (isRecord(v) && v.fingerprint === fingerprint) dropped++
    else kept.push(line + '\n')
  }
  if (dropped > 0) await writeContained(root, REJECTIONS_REL, kept)
  return dropped
}

/** The rejection of each fingerprint (the latest). Pure. */
export function rejectionsByFingerprint(records: readonly RejectionRecord[]): Map<string, RejectionRecord> {
  return new Map(records.map((r) => [r.fingerprint, r]))
}

/**
 * Marks the proposals a person already rejected (same fingerprint) as rejected, with when and by whom; the others
 * are left as they are. Returns how many were marked. Mutates the proposals.
 */
export function applyRejections(proposals: Proposal[], rejected: ReadonlyMap<string, RejectionRecord>): number {
  let n = 0
  for (const p of proposals) {
    const r = p.fingerprint === undefined ? undefined : rejected.get(p.fingerprint)
    if (!r || p.status === 'applied') continue
    p.status = 'rejected'
    p.rejected = { at: r.at, by: r.by }
    n++
  }
  return n
}

/**
 * What a reviewer reads before deciding a proposal in the terminal (`skillbench proposals ID`, `proposals --diff`):
 * why it is proposed (reason, notes, an update's audit findings, conflicts left between markers) and a unified diff of
 * every file it changes (review/line-diff.ts). A file moved whole (a retirement to legacy/) is one line, not its text
 * twice. Pure.
 */
import type { FileChange, Proposal } from '../../shared/types'
import type { AuditFinding } from '../audit/types'
import { findingLines } from '../audit/gate'
import { unifiedDiff } from '../review/line-diff'
import { formatProposal } from './commands/curate'

/** Distinct skills the proposals name (by id; by path for a member without one). */
export function skillsTouched(proposals: readonly Proposal[]): number {
  return new Set(proposals.flatMap((p) => p.members.map((m) => m.skill_id || m.path))).size
}

/** Each changed file's unified diff; a file moved whole (removed here, the same text added there) is one entry with `moved_to`. */
export function proposalDiffs(p: Pick<Proposal, 'changes'>): { path: string; diff: string; moved_to?: string }[] {
  const movedTo = new Map<FileChange, string>()
  const arrivals = new Set<FileChange>()
  for (const gone of p.changes) {
    if (gone.after !== null || gone.before === null) continue
    const arrival = p.changes.find((c) => c.before === null && c.after === gone.before && !arrivals.has(c))
    if (!arrival) continue
    arrivals.add(arrival)
    movedTo.set(gone, arrival.path)
  }
  return p.changes.filter((c) => !arrivals.has(c)).map((c) => (movedTo.has(c) ? { path: c.path, diff: '', moved_to: movedTo.get(c)! } : { path: c.path, diff: unifiedDiff(c.path, c.before, c.after) }))
}

function auditOf(p: Proposal): { findings: AuditFinding[]; added: AuditFinding[] } | null {
  const audit = p.evidence.audit as { findings?: AuditFinding[]; added_high?: AuditFinding[] } | undefined
  if (!audit || !Array.isArray(audit.findings) || audit.findings.length === 0) return null
  return { findings: audit.findings, added: Array.isArray(audit.added_high) ? audit.added_high : [] }
}

/** Why the proposal is made, beyond its one-line reason: who proposed it, notes, audit findings, conflicts. */
function reviewLines(p: Proposal): string[] {
  const lines: string[] = []
  if (p.author) lines.push(`    proposed by ${p.author}`)
  const notes = p.evidence.notes
  if (Array.isArray(notes)) for (const n of notes) lines.push(`    note: ${String(n)}`)
  const conflicts = Number(p.evidence.conflicts) || 0
  if (conflicts > 0) lines.push(`    ${conflicts} place(s) changed on both sides, kept between <<<<<<< and >>>>>>> markers: resolve them in a copy of the file and run \`skillbench accept ${p.id} --from FILE\``)
  const audit = auditOf(p)
  if (audit) {
    const high = audit.findings.filter((f) => f.severity === 'high').length
    lines.push(`    audit of the new version: ${audit.findings.length} finding(s), ${high} high, ${audit.added.length} high new in this version (accepting allows them):`)
    lines.push(findingLines(audit.findings, '      ').replace(/\n$/, ''))
  }
  return lines
}

/** The proposal as `proposals` lists it, then the reasons above and each file's diff. */
export function formatProposalReview(p: Proposal): string {
  const diffs = proposalDiffs(p)
  const out = [formatProposal(p), ...reviewLines(p)]
  for (const d of diffs) {
    if (d.moved_to) out.push(`\n    moved whole: ${d.path} → ${d.moved_to} (the text is unchanged)`)
    else if (d.diff) out.push('', d.diff.replace(/\n$/, ''))
    else out.push(`\n    ${d.path}: no change to its text`)
  }
  return out.join('\n')
}

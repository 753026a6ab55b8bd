/** The audit's findings: what a person sees before an agent runs a skill. Pure types. */

export type AuditSeverity = 'high' | 'medium' | 'low'

export const SEVERITY_RANK: Record<AuditSeverity, number> = { low: 1, medium: 2, high: 3 }

/** One finding. `skill`, `file`, `line`, `rule`, `severity`, `message` is the `skillbench audit --json` shape. */
export interface AuditFinding {
  skill: string
  /** Path of the file inside the skill's folder (`SKILL.md`, `scripts/run.sh`). */
  file: string
  /** 1-based line; 0 when the finding is about the whole file (its size, its kind, a link). */
  line: number
  rule: string
  severity: AuditSeverity
  message: string
  /** The line as an agent reads it (hidden characters shown as ⟦…⟧), cut to 200 characters. */
  excerpt?: string
}

/** True when the finding is at or above the given severity. */
export function atLeast(f: { severity: AuditSeverity }, min: AuditSeverity): boolean {
  return SEVERITY_RANK[f.severity] >= SEVERITY_RANK[min]
}

/** Code-point order: the same on every machine and locale. */
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** Findings ordered for reading: by skill, file, line, most severe first. */
export function sortFindings<T extends AuditFinding>(findings: T[]): T[] {
  return findings.sort((a, b) => cmp(a.skill, b.skill) || cmp(a.file, b.file) || a.line - b.line || SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || cmp(a.rule, b.rule))
}

/** Counts by severity (for summaries and the Overview). */
export function countBySeverity(findings: readonly { severity: AuditSeverity }[]): Record<AuditSeverity, number> {
  const out: Record<AuditSeverity, number> = { high: 0, medium: 0, low: 0 }
  for (const f of findings) out[f.severity]++
  return out
}

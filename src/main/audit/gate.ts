/**
 * The audit as a gate on what enters a library (install, update): a skill with a high finding is held back unless
 * a person allowed it by name, and the allowance is recorded with the findings in the skill's provenance. Pure.
 */
import { auditSkill, type AuditFile } from './skill-audit'
import type { AuditFinding } from './types'
import type { MessageCode, MessageParams } from '../../shared/error-codes'

/** What a person allowed in, kept in `metadata.skillbench.source.risk`. */
export interface RiskRecord {
  /** Who allowed it (the user name, or the app's reviewer) and when. */
  allowed_by: string
  allowed_at: string
  findings: { file: string; line: number; rule: string; severity: string; message: string }[]
}

/** A skill not written because of its findings. */
export interface HeldSkill {
  name: string
  findings: AuditFinding[]
  /** How to take it anyway, in English (the CLI prints it; `--json` and older clients read it). */
  hint: string
  /** `hint` by code (install.held_*), so a screen words it in its own language. */
  messageCode?: MessageCode
  params?: MessageParams
}

/** Findings of a skill about to be written from bytes (SKILL.md text and the folder's other files). */
export function auditIncoming(name: string, skillText: string, files: readonly { rel: string; bytes: Uint8Array; executable?: boolean }[]): AuditFinding[] {
  const all: AuditFile[] = [{ rel: 'SKILL.md', size: Buffer.byteLength(skillText), bytes: Buffer.from(skillText) }, ...files.map((f) => ({ rel: f.rel, size: f.bytes.byteLength, bytes: f.bytes, executable: f.executable }))]
  return auditSkill(name, all)
}

export function highOf(findings: readonly AuditFinding[]): AuditFinding[] {
  return findings.filter((f) => f.severity === 'high')
}

/** The note for medium findings a gate lets through (null when there are none): the count and their rules. */
export function mediumNote(name: string, findings: readonly AuditFinding[]): { name: string; n: number; rules: string } | null {
  const medium = findings.filter((f) => f.severity === 'medium')
  return medium.length === 0 ? null : { name, n: medium.length, rules: [...new Set(medium.map((f) => f.rule))].join(', ') }
}

/** The provenance record of an allowance: the high findings (the ones that needed it), who and when. */
export function riskRecord(findings: readonly AuditFinding[], allowedBy: string, now: Date = new Date()): RiskRecord {
  return {
    allowed_by: allowedBy,
    allowed_at: now.toISOString(),
    findings: highOf(findings).map((f) => ({ file: f.file, line: f.line, rule: f.rule, severity: f.severity, message: f.message }))
  }
}

/** High findings of `after` that `before` did not have (same file, rule and message; lines may move). */
export function addedHigh(before: readonly AuditFinding[], after: readonly AuditFinding[]): AuditFinding[] {
  const key = (f: AuditFinding): string => `${f.file}\u0000${f.rule}\u0000${f.message}\u0000${f.excerpt ?? ''}`
  const had = new Set(highOf(before).map(key))
  return highOf(after).filter((f) => !had.has(key(f)))
}

/** One line per finding, for terminal output: `  HIGH scripts/x.sh:3 remote-code-pipe: …`. */
export function findingLines(findings: readonly AuditFinding[], indent = '    '): string {
  return findings.map((f) => `${indent}${f.severity.toUpperCase()} ${f.file}${f.line > 0 ? `:${f.line}` : ''} ${f.rule}: ${f.message}${f.excerpt ? `\n${indent}  │ ${f.excerpt}` : ''}\n`).join('')
}

/** The findings block printed after import and deploy (empty when there are none to show). */
export function findingsReport(findings: readonly AuditFinding[], what: string): string {
  if (findings.length === 0) return ''
  const high = highOf(findings).length
  return `Audit of the ${what}: ${findings.length} finding(s), ${high} high (skillbench audit shows them again):\n${findingLines(findings.map((f) => ({ ...f, file: `${f.skill}/${f.file}` })), '  ')}`
}

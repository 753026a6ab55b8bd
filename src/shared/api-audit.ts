/**
 * The part of the API contract for the audit (issue 38): a skill's findings (its side panel), a library's counts
 * (the Overview), and the findings install and update attach. Spread into `API_INPUT_SCHEMAS` / `ApiOutputs` of
 * api.ts; same two transports.
 */
import { z } from 'zod'
import type { MessageCode, MessageParams } from './error-codes'

export type AuditSeverityInfo = 'high' | 'medium' | 'low'

/** One finding, as `skillbench audit --json` prints it (messages in English; the rule names it for translation). */
export interface AuditFindingInfo {
  skill: string
  /** Path inside the skill's folder. */
  file: string
  /** 1-based; 0 for the whole file. */
  line: number
  rule: string
  severity: AuditSeverityInfo
  message: string
  /** The line as the agent reads it, hidden characters shown as ⟦…⟧. */
  excerpt?: string
}

/** A skill install did not write because of a high finding (`--allow-risk NAME` takes it). */
export interface HeldSkillInfo {
  name: string
  findings: AuditFindingInfo[]
  hint: string
  /** `hint` by code (install.held_*), beside its English. */
  messageCode?: MessageCode
  params?: MessageParams
}

export interface AuditSkillResult {
  findings: AuditFindingInfo[]
}

/** A library's audit: counts by severity and the skills with findings, most severe first. */
export interface AuditLibraryResult {
  skills: number
  counts: Record<AuditSeverityInfo, number>
  flagged: { name: string; path: string; skill_id?: string; high: number; medium: number; low: number }[]
  /** Skills answered from the audit cache (their files unchanged since the last audit). */
  cached: number
}

const library = z.string().min(1).max(4096)

export const AUDIT_INPUT_SCHEMAS = {
  /** The findings of one skill's folder (or file). */
  'audit.skill': z.object({ library, skillId: z.string().min(1).max(200) }),
  /** Every skill of the library (cached by the files' stamps: about the time of a list). */
  'audit.library': z.object({ library })
} as const

export interface AuditOutputs {
  'audit.skill': AuditSkillResult
  'audit.library': AuditLibraryResult
}

/**
 * The part of the API contract for skills coming in (install / update from git) and going out (deploy into
 * agents' skills folders). Spread into `API_INPUT_SCHEMAS` / `ApiOutputs` of api.ts; same two transports.
 */
import { z } from 'zod'
import type { MessageCode, MessageParams, MessageRef } from './error-codes'
import type { HeldSkillInfo } from './api-audit'

/** Where an installed skill came from (SKILL.md `metadata.skillbench.source`). */
export interface SkillSourceInfo {
  repo: string
  ref: string
  commit: string
  path: string
  /** High audit findings a person allowed in, and who (`--allow-risk`, an accepted high-risk update). */
  risk?: { allowed_by: string; allowed_at: string; findings: { file: string; line: number; rule: string; severity: string; message: string }[] }
}

/** `skillbench install --json`. */
export interface InstallResult {
  installed: { name: string; path: string; source: SkillSourceInfo }[]
  /** `messageCode` + `params`: the reason by code (error-codes.ts), for the app to word. */
  skipped: { name: string; reason: string; messageCode?: MessageCode; params?: MessageParams }[]
  /** Not written because the audit found something high; install again with `allowRisk: [name]` to take one. */
  held?: HeldSkillInfo[]
}

/** `skillbench update --json`. */
export interface UpdateResult {
  checked: number
  proposals: { id: string; name: string; path: string; from: string; to: string; local_edit: boolean; conflicts: number; status: 'added' | 'exists' }[]
  /** `messageCode` + `params`: the note by code (why nothing is proposed although upstream moved). */
  unchanged: { name: string; path: string; commit: string; note?: string; messageCode?: MessageCode; params?: MessageParams }[]
  /** `messageCode` + `params`: the reason by code, when the failure carried one. */
  failed: { name: string; path: string; reason: string; messageCode?: MessageCode; params?: MessageParams }[]
}

export type DeployWhy = 'link' | 'other-library' | 'not-ours' | 'gone' | 'retired-drifted' | 'rewritten' | 'same-change' | 'already-learned' | 'drifted' | 'unproven' | 'empty-folder'

export type DeployAgent = 'claude' | 'codex' | 'agents' | 'gemini' | 'opencode' | 'folder'

export interface DeployTargetInfo {
  /** What `--to` takes: `claude`, `codex`, `agents:/repo`, a folder… */
  spec: string
  agent: DeployAgent
  label: string
  /** The skills folder. */
  dir: string
  exists: boolean
  /** Characters of skill metadata the agent lists up front, when its documentation states it. */
  budget: number | null
}

/**
 * What happens (or would happen) to one skill folder of the target:
 * create / update (written), unchanged (in sync), adopt (changed there exactly as in the library: in sync),
 * remove (retired in the library, copy unchanged), forget (already gone), drifted (changed there: left in place),
 * unmanaged (not placed by Skillbench, or by another library: never touched), refused (a symbolic link).
 */
export type DeployAction = 'create' | 'update' | 'unchanged' | 'adopt' | 'remove' | 'forget' | 'drifted' | 'unmanaged' | 'refused'

export interface DeploySkillReport {
  name: string
  action: DeployAction
  skill_id?: string
  title?: string
  files: { path: string; change: 'write' | 'update' | 'remove' }[]
  /** Why, when it is not obvious: a code (`not-ours`, `drifted`, `already-learned`…) and the same in English. */
  why?: DeployWhy
  reason?: string
  /** What of a drifted copy could not be offered back, and similar remarks (English). */
  notes?: string[]
  /** `notes` by code, in the same order (deploy.note_*), so a script or a screen reads them without the words. */
  note_refs?: MessageRef[]
  /** The `learned` proposal this drifted copy's changes became (review it in Curate). */
  proposal?: string
  /** That proposal is already in the review queue (a run adds the others). */
  proposalQueued?: boolean
}

/** The skill metadata (names + descriptions) the target will list, against the agent's documented budget. */
export interface DeployBudget {
  /** All skills the agent will see in this folder. */
  chars: number
  /** Of those, the ones Skillbench placed from this library. */
  ours: number
  others: number
  limit: number | null
  /** chars / limit × 100, rounded; null without a limit. */
  percent: number | null
  /** ok < 80 % ≤ warn ≤ 100 % < over; none = no documented limit. */
  level: 'ok' | 'warn' | 'over' | 'none'
  source?: string
  /** Over the budget: the skills to disable to get under it, least used first (from the usage index). */
  suggest?: { name: string; title: string; chars: number; uses: number; last_used_at: string | null }[]
}

export interface DeployResult {
  target: DeployTargetInfo
  dryRun: boolean
  skills: DeploySkillReport[]
  counts: { written: number; updated: number; removed: number; unchanged: number; drifted: number; left: number }
  budget: DeployBudget
  /** The journal entry of a real run that changed something (undo it like any change); null otherwise. */
  journal_id: string | null
  /** Learned proposals made from drifted copies (queued by a real run; `queued`: already in the review queue before it). */
  proposals: { id: string; name: string; queued: boolean }[]
  warnings: string[]
  /** Skills of the selection left out because they are disabled for this target (deploy-profiles.json). */
  disabled?: string[]
  /** The deploy profile the selection came from. */
  profile?: string
  /** With a profile: the active skills it does not take (a copy placed before is removed). */
  left_out?: string[]
}

/** A deploy profile: named skills (NAME, tag:TAG, collection:NAME, *) bound to targets. */
export interface DeployProfileInfo {
  targets: string[]
  skills: string[]
  except: string[]
}

/** The library's deploy-profiles.json: profiles, and skills disabled per target. */
export interface DeployConfigInfo {
  profiles: Record<string, DeployProfileInfo>
  disabled: Record<string, string[]>
}

const library = z.string().min(1).max(4096)
const target = z.string().min(1).max(4096)
const skillNames = z.array(z.string().min(1).max(200)).max(10_000).optional()

export const DEPLOY_INPUT_SCHEMAS = {
  'sources.install': z.object({
    library,
    source: z.string().min(1).max(4096),
    ref: z.string().min(1).max(255).optional(),
    path: z.string().min(1).max(1024).optional(),
    skills: skillNames,
    /** Skills to install even with high audit findings (the person read them); recorded in the provenance. */
    allowRisk: z.array(z.string().min(1).max(200)).max(1000).optional()
  }),
  'sources.update': z.object({ library }),
  'deploy.targets': z.object({ library }),
  /** The dry run: exactly what `deploy.run` would do now. */
  'deploy.preview': z.object({ library, to: target, skills: skillNames, profile: z.string().min(1).max(64).optional() }),
  'deploy.run': z.object({ library, to: target, skills: skillNames, profile: z.string().min(1).max(64).optional() }),
  'deploy.config': z.object({ library }),
  /** Disable (enabled: false) or enable skills for one target. */
  'deploy.setEnabled': z.object({ library, to: target, skills: z.array(z.string().min(1).max(200)).min(1).max(10_000), enabled: z.boolean() }),
  /** Set (or with profile: null, remove) a deploy profile. */
  'deploy.setProfile': z.object({
    library,
    name: z.string().min(1).max(64),
    profile: z.object({ targets: z.array(target).min(1).max(100), skills: z.array(z.string().min(1).max(200)).max(10_000), except: z.array(z.string().min(1).max(200)).max(10_000) }).nullable()
  })
} as const

export interface DeployOutputs {
  'sources.install': InstallResult
  'sources.update': UpdateResult
  'deploy.targets': DeployTargetInfo[]
  'deploy.preview': DeployResult
  'deploy.run': DeployResult
  'deploy.config': DeployConfigInfo
  'deploy.setEnabled': DeployConfigInfo
  'deploy.setProfile': DeployConfigInfo
}

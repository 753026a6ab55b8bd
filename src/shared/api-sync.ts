/**
 * The part of the API contract for sharing a library with a team through git (`skillbench sync`). Spread into
 * `API_INPUT_SCHEMAS` / `ApiOutputs` of api.ts; same two transports.
 */
import { z } from 'zod'
import type { JobInfo } from './api-jobs'
import type { CodedLine, MessageCode, MessageParams } from './error-codes'

/** Where a library stands with its remote, as of the last fetch (reading it never touches the network). */
export interface SyncStatus {
  /** The library is the top folder of a git repository with a remote to share with. */
  shared: boolean
  /** Why it is not (not a repository, no remote, detached HEAD…), in English. */
  reason?: string
  /** The same by code (sync.status_*) and its params, for the app to word it in its language. */
  reason_code?: MessageCode
  reason_params?: MessageParams
  /** "origin/main". */
  remote: string | null
  branch: string | null
  /** Commits here the remote does not have yet, and the other way round (as of the last fetch). */
  ahead: number
  behind: number
  /** Files changed here since the last sync commit. */
  local_changes: number
  /** Changes both sides made, waiting for review (sync proposals still pending). */
  conflicts: number
  /** A rebase or merge git is in the middle of (sync refuses to run then). */
  in_progress: string | null
  /** The same by code (sync.op_rebase…), for the app to word it in its language. */
  in_progress_code?: MessageCode | null
  /** Time of the last commit from the remote that arrived, when known. */
  last_fetch: string | null
}

/** `skillbench sync --json`, also the result of a sync job in the app. */
export interface SyncSummary {
  committed: number
  pulled: number
  pushed: number
  conflicts: Array<{ skill_id: string; proposal_id: string }>
  /** What did not stop the sync but deserves a look (the app's job result; by code, English in `message`). */
  notes?: CodedLine[]
}

const library = z.string().min(1).max(4096)

export const SYNC_INPUT_SCHEMAS = {
  'sync.status': z.object({ library }),
  /** Starts a sync job (progress as job events; the end's result is a SyncSummary). */
  'sync.start': z.object({ library })
} as const

export interface SyncOutputs {
  'sync.status': SyncStatus
  'sync.start': JobInfo
}

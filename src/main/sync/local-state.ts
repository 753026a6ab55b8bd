/**
 * What sync keeps on this machine only, under `.skillbench/sync/` (ignored by git): the clone id that names this
 * machine's team ledger, how much of the journal is already described by commits, and the intent of an
 * integration in progress (so a killed sync is finished by the next one).
 */
import fs from 'node:fs'
import path from 'node:path'
import { listContained, readContained, readContainedText, unlinkContained, writeContained } from '../store/contained'
import { LEDGER_ARCHIVE_REL, LEDGER_REL, parseLedgerChunk, type LedgerRecord } from '../store/ledger'
import { newCloneId } from './team-ledger'
import { isCloneId, SYNC_STATE_REL } from '../store/team-ledger-files'
import { SyncError } from './errors'
import { coded } from '../../shared/error-codes'

export const SYNC_DIR_REL = '.skillbench/sync'
const STATE_REL = SYNC_STATE_REL
export const INTENT_REL = `${SYNC_DIR_REL}/integrate.json`
const RUNNING_REL = `${SYNC_DIR_REL}/running.json`

export interface SyncState {
  clone: string
  /** Journal records already told in a commit message. */
  journal: number
  /** Local ledger positions (uses and ratings) already told in a commit message. */
  told: number
}

export async function readState(root: string): Promise<SyncState> {
  const text = await readContainedText(root, STATE_REL).catch(() => null)
  let v: Partial<SyncState>
  try {
    v = text ? (JSON.parse(text) as Partial<SyncState>) : {}
  } catch {
    v = {}
  }
  const state: SyncState = {
    clone: typeof v.clone === 'string' && isCloneId(v.clone) ? v.clone : newCloneId(),
    journal: typeof v.journal === 'number' && v.journal >= 0 ? v.journal : 0,
    told: typeof v.told === 'number' && v.told >= 0 ? v.told : 0
  }
  if (state.clone !== v.clone) await writeState(root, state)
  return state
}

export async function writeState(root: string, state: SyncState): Promise<void> {
  await writeContained(root, STATE_REL, JSON.stringify(state) + '\n')
}

/** An integration about to change the working tree: from the local commit to the merged one. */
export interface IntegrateIntent {
  branch: string
  from: string
  to: string
  /** Proposals to queue once the files are in place (the local changes that conflicted). */
  proposals: unknown[]
  at: string
}

export async function readIntent(root: string): Promise<IntegrateIntent | null> {
  const text = await readContainedText(root, INTENT_REL)
  if (text === null) return null
  const v = JSON.parse(text) as IntegrateIntent
  if (typeof v.from !== 'string' || typeof v.to !== 'string' || typeof v.branch !== 'string') throw new SyncError('failed', coded('sync.not_intent', { file: INTENT_REL }))
  return { ...v, proposals: Array.isArray(v.proposals) ? v.proposals : [] }
}

export async function writeIntent(root: string, intent: IntegrateIntent): Promise<void> {
  await writeContained(root, INTENT_REL, JSON.stringify(intent))
}

export async function clearIntent(root: string): Promise<void> {
  await unlinkContained(root, INTENT_REL)
}

/** Marks a sync as running; returns the start time of one that never finished (it was killed), if any. */
export async function markRunning(root: string): Promise<number | null> {
  const text = await readContainedText(root, RUNNING_REL).catch(() => null)
  let crashed: number | null = null
  if (text) {
    try {
      crashed = Number((JSON.parse(text) as { started?: number }).started) || 0
    } catch {
      crashed = 0
    }
  }
  await writeContained(root, RUNNING_REL, JSON.stringify({ pid: process.pid, started: Date.now() }))
  return crashed
}

export async function markDone(root: string): Promise<void> {
  await unlinkContained(root, RUNNING_REL).catch(() => undefined)
}

/**
 * A git lock file a killed sync left behind (git's own child was killed with it): removed only when it was
 * made after that sync started, so a git command the person runs by hand is never disturbed.
 */
export function removeStaleGitLocks(gitDirPath: string, crashedStart: number, branch: string): string[] {
  const removed: string[] = []
  for (const rel of ['index.lock', 'HEAD.lock', `refs/heads/${branch}.lock`, `refs/remotes/origin/${branch}.lock`, 'packed-refs.lock']) {
    const file = path.join(gitDirPath, rel)
    try {
      const st = fs.lstatSync(file)
      if (st.isFile() && st.mtimeMs >= crashedStart - 1000) {
        fs.unlinkSync(file)
        removed.push(rel)
      }
    } catch {
      // not there
    }
  }
  return removed
}

/** The local ledger history, oldest first: archived ledgers, then the current one. */
export async function readLedgerHistory(root: string): Promise<LedgerRecord[]> {
  const names = await listContained(root, LEDGER_ARCHIVE_REL).catch(() => [] as string[])
  const files = [...names.filter((n) => /^usage-.*\.jsonl$/.test(n)).sort().map((n) => `${LEDGER_ARCHIVE_REL}/${n}`), LEDGER_REL]
  const out: LedgerRecord[] = []
  for (const rel of files) {
    const bytes = await readContained(root, rel)
    if (bytes) out.push(...parseLedgerChunk(bytes).records)
  }
  return out
}

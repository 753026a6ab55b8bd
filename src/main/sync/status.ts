/**
 * Where a library stands with its remote, for the app: ahead / behind as of the last fetch, files changed since
 * the last sync, sync proposals waiting for review. Reads only (no fetch, no lock, nothing written).
 */
import fs from 'node:fs'
import type { SyncStatus } from '../../shared/api-sync'
import { coded, type CodedText } from '../../shared/error-codes'
import { loadPlanOrEmpty } from '../review/plan'
import { aheadBehind, git, gitDir, gitText, operationInProgressCode, revParse, type RepoRun } from './git-io'

function notShared(why: CodedText, extra: Partial<SyncStatus> = {}): SyncStatus {
  return { shared: false, reason: why.text, reason_code: why.messageCode, reason_params: why.params, remote: null, branch: null, ahead: 0, behind: 0, local_changes: 0, conflicts: 0, in_progress: null, last_fetch: null, ...extra }
}

export async function syncStatus(library: string, env?: NodeJS.ProcessEnv): Promise<SyncStatus> {
  let root: string
  try {
    root = fs.realpathSync(library)
  } catch {
    return notShared(coded('sync.status_no_folder'))
  }
  const run: RepoRun = { dir: root, env, timeoutMs: 30_000 }
  const top = await gitText(run, ['rev-parse', '--show-toplevel']).catch(() => null)
  if (top === null || fs.realpathSync(top) !== root) return notShared(top === null ? coded('sync.status_not_repo') : coded('sync.status_inside', { top }))
  const gd = await gitDir(run)
  const inProgressCode = operationInProgressCode(gd)
  const inProgress = inProgressCode ? coded(inProgressCode).text : null
  const branch = await gitText(run, ['symbolic-ref', '--short', '-q', 'HEAD']).catch(() => null)
  if (!branch) return notShared(coded('sync.status_detached'), { in_progress: inProgress, in_progress_code: inProgressCode })
  const remoteName = await gitText(run, ['config', `branch.${branch}.remote`]).catch(() => 'origin')
  const merge = await gitText(run, ['config', `branch.${branch}.merge`]).catch(() => `refs/heads/${branch}`)
  const remoteBranch = merge.replace(/^refs\/heads\//, '')
  const hasRemote = (await gitText(run, ['remote'])).split('\n').includes(remoteName)
  if (!hasRemote) return notShared(coded('sync.status_no_remote'), { branch, in_progress: inProgress, in_progress_code: inProgressCode })
  const remote = `${remoteName}/${remoteBranch}`
  const head = await revParse(run, 'HEAD')
  const theirs = await revParse(run, `refs/remotes/${remote}`)
  let ahead = 0
  let behind = 0
  if (head && theirs) ({ ahead, behind } = await aheadBehind(run, head, theirs))
  else if (head) ahead = Number(await gitText(run, ['rev-list', '--count', head]))
  const porcelain = (await git(run, ['status', '--porcelain', '-z', '--untracked-files=all']).catch(() => Buffer.alloc(0))).toString('utf8')
  const localChanges = porcelain.split('\0').filter((e) => e.length > 3).length
  const plan = await loadPlanOrEmpty(root).catch(() => null)
  const conflicts = plan ? plan.proposals.filter((p) => p.evidence.sync === true && (p.status ?? 'pending') === 'pending').length : 0
  const lastFetch = theirs ? await gitText(run, ['log', '-1', '--format=%cI', theirs]).catch(() => null) : null
  return { shared: true, remote, branch, ahead, behind, local_changes: localChanges, conflicts, in_progress: inProgress, in_progress_code: inProgressCode, last_fetch: lastFetch }
}

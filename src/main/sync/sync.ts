/**
 * `skillbench sync`: a library that is a git working tree shares its changes with its remote.
 *
 * One run, under the library's sync lock (one sync at a time) and, for every step that touches the working tree,
 * the library lock every writer takes:
 *   1. commit the local changes (uses folded into the files first, this machine's uses and ratings appended to
 *      its team ledger), the message told from the journal and the tools' records;
 *   2. fetch (no library lock: only git's own objects and refs change);
 *   3. join the two histories off to the side (a scratch index, blobs, a merge commit: nothing live changes);
 *   4. integrate: the intent is saved, each changed file is written atomically (only files that differ), the
 *      branch moves, the index follows, conflict proposals are queued, the intent is removed;
 *   5. push; a push refused because someone pushed first goes round again from 1.
 * A sync killed at any point is finished by the next one (the intent says what to finish); no live file is ever
 * half-written or holds conflict markers.
 */
import { isLegacyPath, legacyDirFor } from '../../shared/legacy-paths'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { Proposal } from '../../shared/types'
import { recoverTransactions } from '../review/transactions'
import { readJournal } from '../review/journal'
import { queueProposals } from '../sources/update'
import { SourceError, type GitLimits } from '../sources/git'
import { appendContained, readContained, readContainedText, unlinkContained, writeContained } from '../store/contained'
import { withLibraryLock } from '../store/lock'
import { sweepTempFiles } from '../store/atomic'
import { openLibrary } from '../store/library'
import { walkLibrary } from '../store/walk'
import { StoreError } from '../store/types'
import { commitMessage, type ChangedPath } from './commit-message'
import { conflictProposal } from './conflict-proposal'
import { aheadBehind, authorsIn, diffTrees, git, gitDir, gitText, isAncestor, isPushRejected, operationInProgressCode, readBlobs, revParse, writeBlob, type RepoRun } from './git-io'
import { clearIntent, markDone, markRunning, readIntent, readLedgerHistory, readState, removeStaleGitLocks, writeIntent, writeState, type IntegrateIntent } from './local-state'
import { blobText, classify, ledgerAdditions, resolveBoth, skillTitleOf } from './merge-plan'
import { exportLines, lastExported } from './team-ledger'
import { isTeamLedgerPath, teamLedgerRel } from '../store/team-ledger-files'
import { coded, codedLine, type CodedLine } from '../../shared/error-codes'
import { SyncError } from './errors'
import { reasonOf } from '../../shared/api-error'

export type SyncStep = 'check' | 'commit' | 'fetch' | 'merge' | 'apply' | 'push'

/** A line of sync's progress: its English `message` with its code and params (error-codes.ts), so the app words it. */
export interface SyncProgress extends CodedLine {
  step: SyncStep
  done?: number
  total?: number
}

export interface SyncOptions extends GitLimits {
  library: string
  env?: NodeJS.ProcessEnv
  signal?: AbortSignal
  onProgress?: (p: SyncProgress) => void
  /** Rounds of commit–fetch–integrate–push before giving up on a remote that keeps moving (default 5). */
  maxRounds?: number
  /** Test hook: called after each step of the integration (to kill the process there). */
  afterStep?: (step: string) => void | Promise<void>
}

/** `skillbench sync --json`: the issue's shape, plus what a person wants to read. */
export interface SyncReport {
  committed: number
  pulled: number
  pushed: number
  conflicts: Array<{ skill_id: string; proposal_id: string }>
  /** "origin/main". */
  remote: string
  /** The commit the library is at now. */
  head: string
  /** Files the integration wrote or removed. */
  files_written: number
  /** Commit subjects made here. */
  messages: string[]
  /** An interrupted sync this one finished first. */
  recovered: boolean
  /** Things that did not stop the sync but deserve a look: English in `message` (the CLI prints it), by code for the app. */
  notes: CodedLine[]
}

export { SyncError } from './errors'

export const SYNC_LOCK_NAME = 'sync-lock'

/** Lines of the library's .gitignore that keep this machine's state out of the repository. */
export const GITIGNORE_BLOCK = [
  '# Skillbench: pending proposals, the plan, caches, the journal and locks stay on this machine;',
  '# only the team ledgers (uses and ratings of each machine) and retired SKILL.md folders are shared.',
  '/.skillbench/*',
  '!/.skillbench/team/',
  '!/.skillbench/legacy/',
  '.skillbench-tmp-*'
]

interface Repo {
  run: RepoRun
  root: string
  gitDir: string
  branch: string
  remoteName: string
  /** "origin/main". */
  remote: string
  remoteRef: string
}

async function openRepo(opts: SyncOptions): Promise<Repo> {
  let root: string
  try {
    root = fs.realpathSync(opts.library)
  } catch {
    throw new SyncError('not_repo', coded('library.not_found', { path: opts.library }))
  }
  const run: RepoRun = { dir: root, env: opts.env, signal: opts.signal, ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}) }
  let top: string
  try {
    top = fs.realpathSync(await gitText(run, ['rev-parse', '--show-toplevel']))
  } catch (err) {
    if (err instanceof SourceError && err.code === 'git_missing') throw err
    throw new SyncError('not_repo', coded('sync.not_repo', { root, library: opts.library }))
  }
  if (top !== root) throw new SyncError('not_repo', coded('sync.inside_repo', { root, top }))
  const gd = await gitDir(run)
  refuseInProgress({ root, gitDir: gd })
  let branch: string
  try {
    branch = await gitText(run, ['symbolic-ref', '--short', '-q', 'HEAD'])
  } catch {
    throw new SyncError('detached', coded('sync.detached'))
  }
  let remoteName: string
  let merge: string
  try {
    remoteName = await gitText(run, ['config', `branch.${branch}.remote`])
    merge = await gitText(run, ['config', `branch.${branch}.merge`])
  } catch {
    const remotes = (await gitText(run, ['remote'])).split('\n').filter(Boolean)
    remoteName = remotes.includes('origin') ? 'origin' : (remotes[0] ?? '')
    merge = `refs/heads/${branch}`
  }
  if (!remoteName) throw new SyncError('no_remote', coded('sync.no_remote'))
  const remoteBranch = merge.replace(/^refs\/heads\//, '')
  return { run, root, gitDir: gd, branch, remoteName, remote: `${remoteName}/${remoteBranch}`, remoteRef: `refs/remotes/${remoteName}/${remoteBranch}` }
}

function refuseInProgress(repo: Pick<Repo, 'root' | 'gitDir'>): void {
  const what = operationInProgressCode(repo.gitDir)
  if (what) throw new SyncError('in_progress', coded('sync.in_progress', { what: { messageCode: what, params: {} }, root: repo.root }))
}

/** Adds our block to the library's .gitignore when it is missing (the rest of the file is kept). */
async function ensureGitignore(root: string): Promise<boolean> {
  const text = (await readContainedText(root, '.gitignore')) ?? ''
  const next = gitignoreWithBlock(text)
  if (next === null) return false
  await writeContained(root, '.gitignore', next)
  return true
}

/**
 * The .gitignore text with our block's rules (pure; null when all are there). A file with none gets the whole block;
 * one written by an older version gets only the rules it lacks (`!/.skillbench/legacy/`), appended after the others.
 */
export function gitignoreWithBlock(text: string): string | null {
  const have = new Set(text.split('\n').map((l) => l.trim()))
  const rules = GITIGNORE_BLOCK.filter((l) => !l.startsWith('#'))
  const missing = rules.filter((l) => !have.has(l))
  if (missing.length === 0) return null
  const sep = text === '' || text.endsWith('\n') ? '' : '\n'
  if (missing.length < rules.length) return `${text}${sep}${missing.join('\n')}\n`
  return `${text}${sep}${text === '' ? '' : '\n'}${GITIGNORE_BLOCK.join('\n')}\n`
}

/** Folds uses, shares this machine's facts, and commits every local change. Under the library lock. */
async function commitLocal(repo: Repo, report: SyncReport): Promise<boolean> {
  const { root, run } = repo
  return withLibraryLock(root, async () => {
    const library = await openLibrary(root, { lazy: true })
    await library.foldUsage()
    const state = await readState(root)
    const teamRel = teamLedgerRel(state.clone)
    const history = await readLedgerHistory(root)
    const existing = (await readContainedText(root, teamRel)) ?? ''
    const exported = exportLines(history, lastExported(existing))
    if (exported.count > 0) await appendContained(root, teamRel, exported.lines, { fsync: true })
    await ensureGitignore(root)
    await git(run, ['add', '-A'])
    const hasHead = (await revParse(run, 'HEAD')) !== null
    const status = (await git(run, ['diff', '--cached', '--name-status', '-z', '--no-renames', ...(hasHead ? ['HEAD'] : ['--root', '4b825dc642cb6eb9a060e54bf8d69288fbee4904'])])).toString('utf8').split('\0')
    const changed: ChangedPath[] = []
    for (let i = 0; i + 1 < status.length; i += 2) changed.push({ status: (status[i]!.trim()[0] ?? 'M') as ChangedPath['status'], path: status[i + 1]! })
    if (changed.length === 0) return false
    // The words: journal records and tool records since the last commit told them.
    const journal = (await readJournal(root)).records
    const fresh = history.slice(Math.min(state.told, history.length))
    const acts = fresh.filter((r) => r.t === 'act')
    const uses = fresh.reduce((sum, r) => sum + (r.t === 'use' ? r.ids.length : 0), 0)
    const titles = new Map<string, string>()
    for (const c of changed.slice(0, 2000)) {
      if (c.status === 'D' || isTeamLedgerPath(c.path)) continue
      const bytes = await readContained(root, c.path).catch(() => null)
      const title = bytes ? skillTitleOf(bytes.toString('utf8')) : null
      if (title) titles.set(c.path, title)
    }
    const msg = commitMessage({ journal: journal.slice(state.journal), acts, uses, changed, titleOfId: () => undefined, titleOfPath: (p) => titles.get(p) })
    try {
      await git(run, ['commit', '-q', '--no-verify', '-F', '-'], { input: msg.message })
    } catch (err) {
      if (/Please tell me who you are|empty ident|unable to auto-detect email/i.test(String((err as Error).message))) {
        throw new SyncError('identity', coded('sync.identity'))
      }
      throw err
    }
    await writeState(root, { ...state, journal: journal.length, told: history.length })
    report.committed++
    report.messages.push(msg.subject)
    return true
  }, { purpose: 'skillbench sync (commit)' })
}

async function fetchRemote(repo: Repo): Promise<string | null> {
  const branch = repo.remoteRef.slice(`refs/remotes/${repo.remoteName}/`.length)
  try {
    await git(repo.run, ['fetch', '--no-tags', '--quiet', repo.remoteName, `+refs/heads/${branch}:${repo.remoteRef}`])
  } catch (err) {
    // An empty remote (a new bare repository) has no branch yet: the first push makes it.
    if (err instanceof SourceError && err.code === 'not_found') return null
    throw err
  }
  return revParse(repo.run, repo.remoteRef)
}

const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904'

/** Joins ours and theirs into a merge commit (nothing live changes); returns it with the proposals to queue. */
async function buildMerge(repo: Repo, ours: string, theirs: string, report: SyncReport): Promise<{ commit: string; proposals: Proposal[] }> {
  const { run } = repo
  const base = await gitText(run, ['merge-base', ours, theirs]).catch(() => null)
  const baseTree = base ?? EMPTY_TREE
  const [oursDiff, theirsDiff] = await Promise.all([diffTrees(run, baseTree, ours), diffTrees(run, baseTree, theirs)])
  const { take, both } = classify(oursDiff, theirsDiff)
  // Ratings come from the team ledgers each side added to.
  const ledgerFiles = [...new Set([...oursDiff, ...theirsDiff].filter((e) => isTeamLedgerPath(e.path)).map((e) => e.path))]
  const ledgerOid = (diff: typeof oursDiff, p: string, fallback: string | null): string | null => {
    const e = diff.find((x) => x.path === p)
    return e ? e.toOid : fallback
  }
  const baseOids = new Map([...oursDiff, ...theirsDiff].map((e) => [e.path, e.fromOid]))
  const wanted = [...both.flatMap((b) => [b.base, b.ours, b.theirs]), ...ledgerFiles.flatMap((p) => [baseOids.get(p) ?? null, ledgerOid(oursDiff, p, baseOids.get(p) ?? null), ledgerOid(theirsDiff, p, baseOids.get(p) ?? null)])].filter((x): x is string => x !== null)
  const blobs = await readBlobs(run, wanted)
  const t = (oid: string | null): string => (oid ? (blobText(blobs.get(oid)) ?? '') : '')
  const adds = ledgerAdditions(ledgerFiles.map((p) => ({ base: t(baseOids.get(p) ?? null), ours: t(ledgerOid(oursDiff, p, baseOids.get(p) ?? null)), theirs: t(ledgerOid(theirsDiff, p, baseOids.get(p) ?? null)) })))
  const resolutions = resolveBoth(both, blobs, adds, { ours: `local (${ours.slice(0, 12)})`, theirs: `${repo.remote} (${theirs.slice(0, 12)})` })
  // The merged tree: ours, with theirs' one-sided changes and the resolutions, in a scratch index.
  const indexFile = path.join(repo.gitDir, 'skillbench-sync-index')
  fs.rmSync(indexFile, { force: true })
  await git(run, ['read-tree', ours], { indexFile })
  const lines: string[] = []
  const mode = (m: string): string => (m === '000000' ? '100644' : m)
  for (const e of take) lines.push(e.oid === null ? `0 ${'0'.repeat(40)}\t${e.path}` : `${mode(e.mode)} ${e.oid}\t${e.path}`)
  const proposals: Proposal[] = []
  const bothByPath = new Map(both.map((b) => [b.path, b]))
  for (const r of resolutions) {
    const entry = bothByPath.get(r.path)!
    if (r.kind === 'merged') {
      lines.push(`${mode(entry.theirsMode === '000000' ? entry.oursMode : entry.theirsMode)} ${await writeBlob(run, r.text)}\t${r.path}`)
      continue
    }
    const landedOid = r.landed !== null ? await writeBlob(run, r.landed) : (r.landedOid ?? null)
    lines.push(landedOid === null ? `0 ${'0'.repeat(40)}\t${r.path}` : `${mode(entry.theirsMode)} ${landedOid}\t${r.path}`)
    const range = (side: string): string => (base ? `${base}..${side}` : side)
    const [localAuthors, remoteAuthors] = await Promise.all([authorsIn(run, range(ours), [r.path]), authorsIn(run, range(theirs), [r.path])])
    const legacyRel = `${legacyDirFor(r.path.endsWith('SKILL.md') ? 'skill-md' : 'agiagent')}/${r.path}`
    const legacyOid = (await gitText(run, ['ls-files', '-s', '--', legacyRel], { indexFile }).catch(() => '')).split(/\s+/)[1]
    const legacyText = legacyOid ? blobText((await readBlobs(run, [legacyOid])).get(legacyOid)) : null
    const p = conflictProposal(r, { remote: repo.remote, base, ours, theirs, localAuthors, remoteAuthors, legacyText })
    if (p) proposals.push(p)
    else if (entry.ours !== null) report.notes.push(codedLine('sync.note_kept_in_history', { path: r.path, commit: ours.slice(0, 12) }))
  }
  if (lines.length > 0) await git(run, ['update-index', '--index-info'], { input: lines.join('\n') + '\n', indexFile })
  const tree = await gitText(run, ['write-tree'], { indexFile })
  fs.rmSync(indexFile, { force: true })
  const message = `sync: merge ${repo.remote} (${theirs.slice(0, 12)})${proposals.length ? `; ${proposals.length} change(s) both sides made are up for review` : ''}\n`
  const commit = await gitText(run, ['commit-tree', tree, '-p', ours, '-p', theirs, '-F', '-'], { input: message })
  return { commit, proposals }
}

/** True when the working tree has changes git does not have in HEAD (ignored files aside). */
async function workingTreeDirty(run: RepoRun): Promise<boolean> {
  const out = await git(run, ['status', '--porcelain', '-z', '--untracked-files=all'])
  return out.length > 0
}

/** The git blob id of some bytes (sha1, or sha256 in a repository of that format: told by the id's length). */
function blobId(bytes: Buffer, idLength: number): string {
  return createHash(idLength === 64 ? 'sha256' : 'sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex')
}

/** Removes `rel` and the folders it leaves empty (never the root). */
async function removeFile(root: string, rel: string): Promise<void> {
  await unlinkContained(root, rel)
  let dir = path.posix.dirname(rel)
  while (dir !== '.' && dir !== '') {
    try {
      fs.rmdirSync(path.join(root, ...dir.split('/')))
    } catch {
      break // not empty (or not there)
    }
    dir = path.posix.dirname(dir)
  }
}

/**
 * Brings the working tree from `intent.from` to `intent.to` (under the library lock). Idempotent: a file already
 * at its target is left alone, a file someone changed since (neither the old nor the new version) is left for the
 * next commit, so finishing a killed run never overwrites anybody's work.
 */
async function integrate(repo: Repo, intent: IntegrateIntent, opts: SyncOptions): Promise<number> {
  const { run, root } = repo
  const diff = await diffTrees(run, intent.from, intent.to)
  const fromOids = new Map(diff.map((e) => [e.path, e.fromOid]))
  const total = diff.length
  let done = 0
  let written = 0
  const writes = diff.filter((e) => e.toOid !== null)
  const removals = diff.filter((e) => e.toOid === null)
  const BATCH = 256
  for (let i = 0; i < writes.length; i += BATCH) {
    const batch = writes.slice(i, i + BATCH)
    const blobs = await readBlobs(run, batch.map((e) => e.toOid!))
    for (const e of batch) {
      if (e.toMode === '120000' || e.toMode === '160000') {
        done++
        continue // links and submodules are never written into a library
      }
      const bytes = blobs.get(e.toOid!)
      if (!bytes) throw new SyncError('failed', coded('sync.object_missing', { oid: e.toOid!, path: e.path }))
      const current = await readContained(root, e.path).catch(() => null)
      if (current && current.equals(bytes)) {
        done++
        continue
      }
      const was = fromOids.get(e.path) ?? null
      if (current !== null && was !== null && blobId(current, was.length) !== was) {
        done++
        continue // changed here since (someone else's write): kept, committed next time
      }
      await writeContained(root, e.path, bytes, e.toMode === '100755' ? { mode: 0o755 } : {})
      written++
      done++
      if (done % 50 === 0) opts.onProgress?.({ step: 'apply', ...codedLine('sync.applying'), done, total })
    }
    await opts.afterStep?.(`write:${i}`)
  }
  for (const e of removals) {
    const current = await readContained(root, e.path).catch(() => null)
    if (current !== null) {
      if (blobId(current, e.fromOid!.length) === e.fromOid) {
        await removeFile(root, e.path)
        written++
      }
    }
    done++
  }
  opts.onProgress?.({ step: 'apply', ...codedLine('sync.applying'), done: total, total })
  await opts.afterStep?.('files')
  // The branch moves only from the commit the intent started at (a finished run finds it moved already).
  const head = await revParse(run, 'HEAD')
  if (head === intent.from) await git(run, ['update-ref', '-m', 'skillbench sync', `refs/heads/${intent.branch}`, intent.to, intent.from])
  else if (head !== intent.to) throw new SyncError('failed', coded('sync.branch_moved', { head: head?.slice(0, 12) ?? 'undefined' }))
  await opts.afterStep?.('ref')
  await git(run, ['reset', '-q', '--mixed', 'HEAD']) // the index follows the branch (the files are already there)
  if (intent.proposals.length > 0) await queueProposals(root, intent.proposals as Proposal[])
  const library = await openLibrary(root, { lazy: true })
  const touched = diff.map((e) => e.path).filter((p) => !p.startsWith('.skillbench/') || isLegacyPath(p))
  if (touched.length > 0) await library.adoptWrites(touched).catch(() => undefined)
  await clearIntent(root)
  return written
}

/** Finishes an integration a killed sync left (called first by every sync). */
async function recover(repo: Repo, opts: SyncOptions, report: SyncReport): Promise<void> {
  const intent = await readIntent(repo.root)
  if (!intent) return
  opts.onProgress?.({ step: 'apply', ...codedLine('sync.finishing') })
  const known = (await revParse(repo.run, intent.to)) !== null && (await revParse(repo.run, intent.from)) !== null
  if (!known) {
    // The merged commit is gone (it was never written completely): nothing live changed before it existed.
    await clearIntent(repo.root)
    return
  }
  report.files_written += await withLibraryLock(repo.root, () => integrate(repo, intent, opts), { purpose: 'skillbench sync (finishing)' })
  report.recovered = true
}

/** Runs one sync. Throws SyncError / SourceError with a message for the person. */
export async function syncLibrary(opts: SyncOptions): Promise<SyncReport> {
  const progress = opts.onProgress ?? (() => undefined)
  progress({ step: 'check', ...codedLine('sync.checking') })
  const repo = await openRepo(opts)
  refuseInProgress(repo)
  const report: SyncReport = { committed: 0, pulled: 0, pushed: 0, conflicts: [], remote: repo.remote, head: '', files_written: 0, messages: [], recovered: false, notes: [] }
  try {
    await withLibraryLock(
      repo.root,
      async () => {
        const crashed = await markRunning(repo.root)
        if (crashed !== null) {
          const removed = removeStaleGitLocks(repo.gitDir, crashed, repo.branch)
          if (removed.length) report.notes.push(codedLine('sync.note_locks_removed', { files: removed.join(', ') }))
          await recoverTransactions(repo.root)
          // a killed writer's temp files (ignored by git and readers) are swept, as a library open does
          const { temps } = await walkLibrary(repo.root)
          for (const t of temps) await sweepTempFiles(path.dirname(t), [path.basename(t)])
        }
        await recover(repo, opts, report)
        await rounds(repo, opts, report)
        await markDone(repo.root)
      },
      { lockName: SYNC_LOCK_NAME, purpose: 'skillbench sync', timeoutMs: 2000 }
    )
  } catch (err) {
    if (err instanceof StoreError && err.code === 'busy' && /sync/.test(err.message)) throw new SyncError('busy', coded('sync.busy', { reason: reasonOf(err) }))
    throw err
  }
  report.head = (await revParse(repo.run, 'HEAD')) ?? ''
  return report
}

async function rounds(repo: Repo, opts: SyncOptions, report: SyncReport): Promise<void> {
  const progress = opts.onProgress ?? (() => undefined)
  const maxRounds = opts.maxRounds ?? 5
  for (let round = 1; ; round++) {
    refuseInProgress(repo)
    progress({ step: 'commit', ...codedLine('sync.committing') })
    await commitLocal(repo, report)
    progress({ step: 'fetch', ...codedLine('sync.fetching', { remote: repo.remote }) })
    const theirs = await fetchRemote(repo)
    const ours = await revParse(repo.run, 'HEAD')
    let target: string | null = null
    let proposals: Proposal[] = []
    if (theirs && ours && theirs !== ours && !(await isAncestor(repo.run, theirs, ours))) {
      const { behind } = await aheadBehind(repo.run, ours, theirs)
      progress({ step: 'merge', ...codedLine('sync.joining', { n: behind, remote: repo.remote }) })
      if (await isAncestor(repo.run, ours, theirs)) target = theirs
      else ({ commit: target, proposals } = await buildMerge(repo, ours, theirs, report))
      report.pulled += behind
    }
    if (target && ours) {
      const changedMeanwhile = await withLibraryLock(repo.root, async () => {
        if ((await revParse(repo.run, 'HEAD')) !== ours || (await workingTreeDirty(repo.run))) return true
        await writeIntent(repo.root, { branch: repo.branch, from: ours, to: target, proposals, at: new Date().toISOString() })
        await opts.afterStep?.('intent')
        progress({ step: 'apply', ...codedLine('sync.applying') })
        report.files_written += await integrate(repo, { branch: repo.branch, from: ours, to: target, proposals, at: '' }, opts)
        return false
      }, { purpose: 'skillbench sync (integrate)' })
      if (changedMeanwhile) {
        report.pulled -= (await aheadBehind(repo.run, ours, target)).behind
        if (round >= maxRounds) throw new SyncError('diverging', coded('sync.kept_changing'))
        continue // commit what was written meanwhile, then join again
      }
      for (const p of proposals) report.conflicts.push({ skill_id: p.members[0]?.skill_id ?? '', proposal_id: p.id })
    }
    const head = await revParse(repo.run, 'HEAD')
    if (!head) return // nothing anywhere yet
    const remoteNow = await revParse(repo.run, repo.remoteRef)
    const ahead = remoteNow ? (await aheadBehind(repo.run, head, remoteNow)).ahead : Number(await gitText(repo.run, ['rev-list', '--count', head]))
    if (ahead === 0) return
    await opts.afterStep?.('before-push')
    progress({ step: 'push', ...codedLine('sync.sending', { n: ahead, remote: repo.remote }) })
    const branch = repo.remoteRef.slice(`refs/remotes/${repo.remoteName}/`.length)
    try {
      await git(repo.run, ['-c', 'advice.pushUpdateRejected=false', 'push', '--quiet', '--no-verify', repo.remoteName, `${head}:refs/heads/${branch}`])
    } catch (err) {
      if (isPushRejected(err) && round < maxRounds) {
        progress({ step: 'fetch', ...codedLine('sync.moved_on', { remote: repo.remote }) })
        continue
      }
      if (isPushRejected(err)) throw new SyncError('diverging', coded('sync.remote_kept_moving', { remote: repo.remote, tries: maxRounds }))
      throw err
    }
    await git(repo.run, ['update-ref', repo.remoteRef, head]).catch(() => undefined)
    report.pushed += ahead
    return
  }
}

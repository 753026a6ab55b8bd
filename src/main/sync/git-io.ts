/**
 * The git commands sync runs on a library's repository, through the system git of `sources/git.ts` (never a
 * prompt; credentials from the user's helper or key). Thin wrappers that parse git's machine output; the
 * decisions are in the pure modules.
 */
import fs from 'node:fs'
import path from 'node:path'
import { gitLimits, runGit, SourceError, type GitLimits } from '../sources/git'
import type { MessageCode } from '../../shared/error-codes'

export interface RepoRun extends GitLimits {
  /** The repository's working tree (the library root). */
  dir: string
  env?: NodeJS.ProcessEnv
  signal?: AbortSignal
}

/** Runs git in the library's working tree; stdout as bytes. */
export function git(run: RepoRun, args: string[], extra: { input?: string | Buffer; indexFile?: string } = {}): Promise<Buffer> {
  const limits = gitLimits(run, run.env)
  return runGit(['-C', run.dir, ...args], { timeoutMs: limits.timeoutMs, env: run.env, signal: run.signal, ...extra })
}

export async function gitText(run: RepoRun, args: string[], extra: { input?: string | Buffer; indexFile?: string } = {}): Promise<string> {
  return (await git(run, args, extra)).toString('utf8').trim()
}

/** The commit a revision names, or null when it names none. */
export async function revParse(run: RepoRun, rev: string): Promise<string | null> {
  try {
    return await gitText(run, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`])
  } catch {
    return null
  }
}

/** The repository's git folder (absolute). */
export async function gitDir(run: RepoRun): Promise<string> {
  return path.resolve(run.dir, await gitText(run, ['rev-parse', '--git-dir']))
}

/** The marker files git leaves in the middle of an operation, with the operation's code (error-codes.ts). */
const IN_PROGRESS_MARKS: ReadonlyArray<readonly [string, MessageCode]> = [
  ['rebase-merge', 'sync.op_rebase'],
  ['rebase-apply', 'sync.op_rebase_apply'],
  ['MERGE_HEAD', 'sync.op_merge'],
  ['CHERRY_PICK_HEAD', 'sync.op_cherry_pick'],
  ['REVERT_HEAD', 'sync.op_revert'],
  ['BISECT_LOG', 'sync.op_bisect']
]

/** What git is in the middle of, by code (null when nothing): a param the app words in its own language. */
export function operationInProgressCode(gitDirPath: string): MessageCode | null {
  for (const [name, code] of IN_PROGRESS_MARKS) if (fs.existsSync(path.join(gitDirPath, name))) return code
  return null
}

/** One path that differs between two commits: its blob (null = absent) and mode on each side. */
export interface TreeDiffEntry {
  path: string
  fromOid: string | null
  toOid: string | null
  toMode: string
}

const ZERO = /^0+$/

/** Parses `git diff-tree -r -z --no-renames` raw output. Pure. */
export function parseRawDiff(out: Buffer): TreeDiffEntry[] {
  const parts = out.toString('utf8').split('\0')
  const entries: TreeDiffEntry[] = []
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const head = parts[i]!.replace(/^\n/, '')
    const m = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) (\w)/.exec(head)
    if (!m) continue
    entries.push({ path: parts[i + 1]!, fromOid: ZERO.test(m[3]!) ? null : m[3]!, toOid: ZERO.test(m[4]!) ? null : m[4]!, toMode: m[2]! })
  }
  return entries
}

/** The files that differ between two commits (no rename detection: a move is a removal and an addition). */
export async function diffTrees(run: RepoRun, from: string, to: string): Promise<TreeDiffEntry[]> {
  return parseRawDiff(await git(run, ['diff-tree', '-r', '-z', '--no-renames', '--no-commit-id', from, to]))
}

/** Blobs by id (cat-file --batch). */
export async function readBlobs(run: RepoRun, oids: readonly string[]): Promise<Map<string, Buffer>> {
  const unique = [...new Set(oids)]
  const out = new Map<string, Buffer>()
  if (unique.length === 0) return out
  const raw = await git(run, ['cat-file', '--batch'], { input: unique.join('\n') + '\n' })
  let at = 0
  while (at < raw.length) {
    const nl = raw.indexOf(0x0a, at)
    if (nl < 0) break
    const m = /^([0-9a-f]{40,64}) (\w+) (\d+)$/.exec(raw.subarray(at, nl).toString('utf8'))
    at = nl + 1
    if (!m) continue
    const size = Number(m[3])
    out.set(m[1]!, raw.subarray(at, at + size))
    at += size + 1
  }
  return out
}

/** Stores a blob, returns its id. */
export async function writeBlob(run: RepoRun, bytes: Buffer | string): Promise<string> {
  return gitText(run, ['hash-object', '-w', '--stdin'], { input: bytes })
}

/** Whether `a` is an ancestor of (or equal to) `b`. */
export async function isAncestor(run: RepoRun, a: string, b: string): Promise<boolean> {
  try {
    await git(run, ['merge-base', '--is-ancestor', a, b])
    return true
  } catch {
    return false
  }
}

/** Commits in `a` not in `b` and the other way round. */
export async function aheadBehind(run: RepoRun, local: string, remote: string): Promise<{ ahead: number; behind: number }> {
  const [ahead, behind] = (await gitText(run, ['rev-list', '--left-right', '--count', `${local}...${remote}`])).split(/\s+/).map(Number)
  return { ahead: ahead ?? 0, behind: behind ?? 0 }
}

/** The author of a commit as "Name <email>". */
export async function authorOf(run: RepoRun, commit: string): Promise<string> {
  return gitText(run, ['log', '-1', '--format=%an <%ae>', commit])
}

/** The authors of the commits in `range` (newest first, each once). */
export async function authorsIn(run: RepoRun, range: string, paths: readonly string[] = []): Promise<string[]> {
  const out = await gitText(run, ['log', '--format=%an <%ae>', range, ...(paths.length ? ['--', ...paths] : [])])
  return [...new Set(out.split('\n').filter((l) => l.trim() !== ''))]
}

/** A push refused because the remote moved on (someone pushed first), told apart from other failures. */
export function isPushRejected(err: unknown): boolean {
  return err instanceof SourceError && /\[rejected\]|\[remote rejected\].*(stale|fetch first)|non-fast-forward|fetch first|failed to update ref/i.test(err.message)
}

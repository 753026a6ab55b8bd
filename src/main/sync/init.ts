/**
 * `skillbench sync --init URL`: makes a library that is not a repository yet into one that shares with URL: a
 * new repository on the remote's default branch (main for an empty remote), the remote as `origin`, the branch
 * tracking it. The first sync then commits the library and joins whatever the remote already has.
 */
import fs from 'node:fs'
import { git, gitText, type RepoRun } from './git-io'
import { SyncError } from './errors'
import { coded } from '../../shared/error-codes'

/** The remote's default branch (null when the remote has none yet: an empty repository). */
async function remoteDefaultBranch(run: RepoRun, url: string): Promise<string | null> {
  const out = await gitText(run, ['ls-remote', '--symref', url, 'HEAD'])
  const m = /^ref: refs\/heads\/(\S+)\s+HEAD$/m.exec(out)
  return m ? m[1]! : null
}

export async function initSync(opts: { library: string; url: string; env?: NodeJS.ProcessEnv; signal?: AbortSignal }): Promise<{ branch: string }> {
  let root: string
  try {
    root = fs.realpathSync(opts.library)
  } catch {
    throw new SyncError('not_repo', coded('library.not_found', { path: opts.library }))
  }
  const run: RepoRun = { dir: root, env: opts.env, signal: opts.signal }
  const inside = await gitText(run, ['rev-parse', '--show-toplevel']).catch(() => null)
  if (inside !== null) {
    throw new SyncError('not_repo', coded('sync.already_in_repo', { root, inside, url: opts.url, library: opts.library }))
  }
  if (opts.url.trim() === '' || opts.url.startsWith('-')) throw new SyncError('no_remote', coded('sync.bad_url', { url: JSON.stringify(opts.url) }))
  const branch = (await remoteDefaultBranch(run, opts.url)) ?? 'main'
  await git(run, ['init', '-q', '-b', branch])
  await git(run, ['remote', 'add', 'origin', opts.url])
  await git(run, ['config', `branch.${branch}.remote`, 'origin'])
  await git(run, ['config', `branch.${branch}.merge`, `refs/heads/${branch}`])
  return { branch }
}

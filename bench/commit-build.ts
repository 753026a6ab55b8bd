/**
 * A build of another commit for before-after.bench.ts (its "before", and its "after" when not this tree): the commit
 * of this repository exported (`git archive`, so the project's
 * worktrees and branches are not touched) into a folder of the system temp dir, installed (`npm ci`, offline from
 * the npm cache when it can be, no Electron binary) and built once, then reused by later runs.
 *
 * The folder is made under a name of this process and renamed into place once built, so a run stopped half-way or
 * two runs at once never leave a half-made tree where the next run looks.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { buildStaleReason } from './measure'

export interface CommitBuild {
  /** The checkout: bin/skillbench.cjs there runs its build. */
  dir: string
  sha: string
  /** How it was made or that it was reused, for the report. */
  note: string
}

/** Where checkouts of commits are kept between runs. */
export const CHECKOUTS = path.join(os.tmpdir(), 'skillbench-before-after')

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): { code: number | null; out: string } {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 1 << 26, timeout: 1_200_000 })
  return { code: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim() }
}

const lastLine = (text: string): string => text.split('\n').slice(-1)[0] ?? ''

/** The full commit id of `ref` in the repository at `root`; throws with git's reason. */
export function resolveCommit(root: string, ref: string): string {
  const r = run('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], root)
  if (r.code !== 0 || !/^[0-9a-f]{40}$/.test(r.out)) throw new Error(`${ref} is not a commit of ${root}`)
  return r.out
}

/** npm ci in `dir`: from the npm cache alone first, then with the registry; says which. */
function install(dir: string, log: (text: string) => void): string {
  const env = { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1', NODE_OPTIONS: '' }
  const flags = ['--no-audit', '--no-fund', '--loglevel=error']
  log('npm ci --offline (from the npm cache)…')
  if (run('npm', ['ci', '--offline', ...flags], dir, env).code === 0) return 'installed offline from the npm cache'
  log('npm ci --offline failed: npm ci with the registry…')
  const online = run('npm', ['ci', '--prefer-offline', ...flags], dir, env)
  if (online.code !== 0) throw new Error(`npm ci failed in ${dir}: ${lastLine(online.out)}`)
  return 'installed with the registry (the npm cache alone was not enough)'
}

function build(dir: string, log: (text: string) => void): void {
  log(`npm run build in ${dir}…`)
  const b = run('npm', ['run', 'build'], dir, { ...process.env, NODE_OPTIONS: '' })
  if (b.code !== 0) throw new Error(`npm run build failed in ${dir}: ${lastLine(b.out)}`)
  const stale = buildStaleReason(dir)
  if (stale) throw new Error(`the build of ${dir} is not usable: ${stale}`)
}

/** The built checkout of `ref` (made on first use). */
export function prepareCommitBuild(root: string, ref: string, log: (text: string) => void): CommitBuild {
  const sha = resolveCommit(root, ref)
  const dir = path.join(CHECKOUTS, sha)
  if (fs.existsSync(path.join(dir, 'out', 'main', 'cli-sources.json'))) {
    // Made by an earlier run; a build that no longer matches its sources (someone edited the folder) is made again.
    if (buildStaleReason(dir)) build(dir, log)
    return { dir, sha, note: `the checkout in ${dir} made by an earlier run, reused` }
  }
  const partial = `${dir}.partial-${process.pid}`
  fs.rmSync(partial, { recursive: true, force: true })
  fs.mkdirSync(partial, { recursive: true })
  log(`exporting ${ref} (${sha.slice(0, 10)}) into ${partial}…`)
  const exported = run('sh', ['-c', 'git archive --format=tar "$1" | tar -x -C "$2"', 'sh', sha, partial], root)
  if (exported.code !== 0) throw new Error(`git archive ${sha} failed: ${lastLine(exported.out)}`)
  const how = install(partial, log)
  build(partial, log)
  try {
    fs.renameSync(partial, dir)
  } catch (err) {
    // Another run finished the same checkout first: use theirs, our copy was ours alone.
    if (!fs.existsSync(path.join(dir, 'out', 'main', 'cli-sources.json'))) throw err
    fs.rmSync(partial, { recursive: true, force: true })
  }
  return { dir, sha, note: `exported with git archive into ${dir}, ${how}, built` }
}

/**
 * Repositories fetched into the user's cache folder (`<cache>/git/<hash>.git`, bare, shallow): resolving a ref
 * with `ls-remote`, fetching just that commit, listing its tree and reading its blobs. Nothing is checked out,
 * so nothing of the repository (hooks, filters, links) ever runs or lands on disk outside git's object store.
 * One lock per cached repository keeps two installs from fetching into it at once.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { defaultCacheDir } from '../cache-dir'
import { withLibraryLock } from '../store/lock'
import { folderBytes, gitLimits, runGit, SourceError, tooBig, type GitLimits } from './git'
import type { SourceSpec } from './source-spec'
import { coded } from '../../shared/error-codes'

export interface FetchedCommit {
  /** The bare cache repository. */
  repoDir: string
  commit: string
  /** The ref as recorded: the branch or tag name, or the commit when a commit was asked for. */
  ref: string
}

export interface FetchOptions extends GitLimits {
  env?: NodeJS.ProcessEnv
  signal?: AbortSignal
}

/** `<cache>/git`: where fetched repositories live. */
export function gitCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(defaultCacheDir(env), 'git')
}

/**
 * `<cache>/git` made (or checked) as a real folder: neither it nor the cache folder itself may be a symbolic link,
 * so a link planted there can never make a fetch write somewhere else. Folders above the cache folder are the
 * user's choice, as a library's root is.
 */
export function containedGitCache(env: NodeJS.ProcessEnv = process.env): string {
  const cache = defaultCacheDir(env)
  const root = path.join(cache, 'git')
  fs.mkdirSync(path.dirname(cache), { recursive: true })
  for (const dir of [cache, root]) {
    const st = fs.lstatSync(dir, { throwIfNoEntry: false })
    if (st?.isSymbolicLink()) {
      const to = (() => {
        try {
          return fs.readlinkSync(dir)
        } catch {
          return '?'
        }
      })()
      throw new SourceError('invalid', coded('source.cache_symlink', { dir, to }))
    }
    if (st && !st.isDirectory()) throw new SourceError('invalid', coded('source.cache_not_folder', { dir }))
    if (!st) {
      try {
        fs.mkdirSync(dir)
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      }
    }
  }
  return root
}

/** True when the cached repository folder is a link or holds one where git writes (never written through). */
function holdsLink(repoDir: string): boolean {
  const isLink = (p: string): boolean => fs.lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink() === true
  if (isLink(repoDir)) return true
  for (const sub of ['', 'objects', 'objects/pack', 'objects/info', 'refs', 'refs/skillbench']) {
    const dir = path.join(repoDir, sub)
    if (sub !== '' && isLink(dir)) return true
    let names: string[]
    try {
      names = fs.readdirSync(dir)
    } catch {
      continue
    }
    if (names.some((n) => isLink(path.join(dir, n)))) return true
  }
  return false
}

function cacheKey(spec: SourceSpec): string {
  return createHash('sha256').update(spec.display).digest('hex').slice(0, 24)
}

/** Parses `git ls-remote` output into ref name → commit (tags: the peeled commit). Pure. */
export function parseLsRemote(text: string): { refs: Map<string, string>; head: string | null } {
  const refs = new Map<string, string>()
  let head: string | null = null
  for (const line of text.split('\n')) {
    const sym = /^ref: (\S+)\tHEAD$/.exec(line)
    if (sym) {
      head = sym[1]!
      continue
    }
    const m = /^([0-9a-f]{40,64})\t(\S+)$/.exec(line)
    if (!m) continue
    const [, oid, name] = m as unknown as [string, string, string]
    if (name.endsWith('^{}')) refs.set(name.slice(0, -3), oid) // a tag's commit wins over the tag object
    else if (!refs.has(name)) refs.set(name, oid)
  }
  return { refs, head }
}

/** Which remote ref a `--ref` names (branch, then tag, then a full ref name); null when none. Pure. */
export function pickRef(refs: ReadonlyMap<string, string>, ref: string): { name: string; oid: string } | null {
  for (const name of [`refs/heads/${ref}`, `refs/tags/${ref}`, ref]) {
    const oid = refs.get(name)
    if (oid && name.startsWith('refs/')) return { name, oid }
  }
  return null
}

const SHA = /^[0-9a-f]{7,64}$/i

/** Resolves the ref on the remote and fetches that one commit into the cache (shallow). */
export async function fetchCommit(spec: SourceSpec, ref: string | undefined, opts: FetchOptions = {}): Promise<FetchedCommit> {
  const limits = gitLimits(opts, opts.env)
  const run = { timeoutMs: limits.timeoutMs, env: opts.env, signal: opts.signal }
  const listing = (await runGit(['ls-remote', '--symref', '--', spec.url, ...(ref === undefined ? ['HEAD'] : [])], run)).toString('utf8')
  const { refs, head } = parseLsRemote(listing)
  let want: { name: string; oid: string | null; recorded: string }
  if (ref === undefined) {
    if (!head) {
      const oid = refs.get('HEAD')
      if (!oid) throw new SourceError('not_found', coded('source.no_default_branch', { repo: spec.display }))
      want = { name: 'HEAD', oid, recorded: 'HEAD' }
    } else want = { name: head, oid: refs.get('HEAD') ?? null, recorded: head.replace(/^refs\/(heads|tags)\//, '') }
  } else {
    const picked = pickRef(refs, ref)
    if (picked) want = { name: picked.name, oid: picked.oid, recorded: ref }
    else if (SHA.test(ref)) want = { name: ref.toLowerCase(), oid: null, recorded: ref.toLowerCase() }
    else throw new SourceError('not_found', coded('source.no_ref', { ref, repo: spec.display }))
  }
  const root = containedGitCache(opts.env)
  const key = cacheKey(spec)
  const repoDir = path.join(root, `${key}.git`)
  return withLibraryLock(
    fs.realpathSync(root),
    async () => {
      await ensureBare(repoDir, run)
      if (want.oid && (await hasCommit(repoDir, want.oid, run))) return { repoDir, commit: want.oid, ref: want.recorded }
      // Every fetched commit keeps a ref of its own, so a later update can still read the commit it started from.
      const target = `refs/skillbench/${want.oid ?? 'fetched'}`
      const refspec = `+${want.name}:${target}`
      const objects = path.join(repoDir, 'objects')
      const sizeBefore = folderBytes(objects)
      await runGit(['-C', repoDir, 'fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--depth', '1', '--', spec.url, refspec], {
        ...run,
        watch: { dir: objects, maxBytes: sizeBefore + limits.maxRepoBytes }
      }).catch((err: unknown) => {
        if (err instanceof SourceError && err.code === 'too_big') void cleanPartial(repoDir)
        throw err
      })
      const commit = (await runGit(['-C', repoDir, 'rev-parse', '--verify', '--end-of-options', `${target}^{commit}`], run)).toString('utf8').trim()
      if (folderBytes(objects) - sizeBefore > limits.maxRepoBytes) throw tooBig(limits.maxRepoBytes)
      if (!want.oid) await runGit(['-C', repoDir, 'update-ref', `refs/skillbench/${commit}`, commit], run)
      return { repoDir, commit, ref: want.recorded }
    },
    { lockDir: '', lockName: `${key}.lock`, what: 'folder', purpose: `fetching ${spec.display}`.slice(0, 80), timeoutMs: limits.timeoutMs }
  )
}

/** Makes sure an older commit (the one a skill was installed from) is in the cache; false when the remote refuses it. */
export async function ensureCommit(spec: SourceSpec, repoDir: string, commit: string, opts: FetchOptions = {}): Promise<boolean> {
  const limits = gitLimits(opts, opts.env)
  const run = { timeoutMs: limits.timeoutMs, env: opts.env, signal: opts.signal }
  if (await hasCommit(repoDir, commit, run)) return true
  try {
    await runGit(['-C', repoDir, 'fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--depth', '1', '--', spec.url, `+${commit}:refs/skillbench/${commit}`], {
      ...run,
      watch: { dir: path.join(repoDir, 'objects'), maxBytes: folderBytes(path.join(repoDir, 'objects')) + limits.maxRepoBytes }
    })
  } catch {
    return false
  }
  return hasCommit(repoDir, commit, run)
}

async function hasCommit(repoDir: string, oid: string, run: { timeoutMs: number; env?: NodeJS.ProcessEnv }): Promise<boolean> {
  try {
    await runGit(['-C', repoDir, 'cat-file', '-e', '--end-of-options', `${oid}^{commit}`], run)
    return true
  } catch {
    return false
  }
}

async function ensureBare(repoDir: string, run: { timeoutMs: number; env?: NodeJS.ProcessEnv }): Promise<void> {
  const linked = holdsLink(repoDir)
  if (!linked && fs.existsSync(path.join(repoDir, 'HEAD')) && fs.existsSync(path.join(repoDir, 'objects'))) return
  // Our own cache: a folder left half-made by a crash, or holding a link (removed, never followed: rmSync takes
  // the link itself), is simply made again.
  fs.rmSync(repoDir, { recursive: true, force: true })
  await runGit(['init', '--bare', '--quiet', repoDir], run)
}

/** Removes what a stopped fetch left (temporary packs); the cache stays usable. */
async function cleanPartial(repoDir: string): Promise<void> {
  const pack = path.join(repoDir, 'objects', 'pack')
  for (const name of fs.readdirSync(pack, { withFileTypes: true })) {
    if (name.name.startsWith('tmp_') || name.name.startsWith('.tmp')) fs.rmSync(path.join(pack, name.name), { force: true, recursive: true })
  }
}

/** One entry of a commit's tree. */
export interface TreeEntry {
  /** Path from the repository root. */
  path: string
  /** `100644`, `100755` (executable), `120000` (symbolic link: the blob is its target), `160000` (submodule). */
  mode: string
  oid: string
  size: number
}

/** Parses `git ls-tree -r -l -z` output. Pure. */
export function parseLsTree(out: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = []
  for (const rec of out.toString('utf8').split('\0')) {
    if (rec === '') continue
    const tab = rec.indexOf('\t')
    const m = /^(\d{6}) (\w+) ([0-9a-f]{40,64}) +(\S+)$/.exec(rec.slice(0, tab))
    if (tab < 0 || !m) continue
    entries.push({ path: rec.slice(tab + 1), mode: m[1]!, oid: m[3]!, size: m[4] === '-' ? 0 : Number(m[4]) })
  }
  return entries
}

/** Most tree entries read from one commit (a monorepo of a million files is refused, not listed). */
export const MAX_TREE_ENTRIES = 200_000

/** Every blob (and link, submodule) of the commit under `subdir` ('' = the whole tree). */
export async function listTree(repoDir: string, commit: string, subdir: string, opts: FetchOptions = {}): Promise<TreeEntry[]> {
  const limits = gitLimits(opts, opts.env)
  const args = ['-C', repoDir, 'ls-tree', '-r', '-l', '-z', '--full-tree', '--end-of-options', commit]
  if (subdir) args.push('--', subdir)
  const out = await runGit(args, { timeoutMs: limits.timeoutMs, env: opts.env, signal: opts.signal })
  const entries = parseLsTree(out)
  if (entries.length > MAX_TREE_ENTRIES) throw new SourceError('too_big', coded('source.too_many_files', { n: MAX_TREE_ENTRIES, folder: subdir || coded('install.its_root') }))
  return entries
}

/** Reads blobs by id in one `git cat-file --batch` run; a missing one is absent from the map. */
export async function readBlobs(repoDir: string, oids: readonly string[], opts: FetchOptions = {}): Promise<Map<string, Buffer>> {
  const unique = [...new Set(oids)]
  const out = new Map<string, Buffer>()
  if (unique.length === 0) return out
  const limits = gitLimits(opts, opts.env)
  const raw = await runGit(['-C', repoDir, 'cat-file', '--batch'], { timeoutMs: limits.timeoutMs, env: opts.env, signal: opts.signal, input: unique.join('\n') + '\n' })
  let at = 0
  while (at < raw.length) {
    const nl = raw.indexOf(0x0a, at)
    if (nl < 0) break
    const header = raw.subarray(at, nl).toString('utf8')
    at = nl + 1
    const m = /^([0-9a-f]{40,64}) (\w+) (\d+)$/.exec(header)
    if (!m) continue // "<oid> missing"
    const size = Number(m[3])
    out.set(m[1]!, raw.subarray(at, at + size))
    at += size + 1
  }
  return out
}

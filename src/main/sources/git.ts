/**
 * The system `git`, run so that it can never wait for a person: no terminal prompt, no askpass program, no
 * credential manager dialog, SSH in batch mode, stdin closed. Every run has a time limit; a fetch also has a
 * size limit (the objects folder is watched while it grows). Failures become a `SourceError` whose message says
 * what to do (missing git, not a repository, credentials needed, too big, too slow).
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { coded, type CodedText, type MessageCode, type MessageParams } from '../../shared/error-codes'

export type SourceErrorCode = 'git_missing' | 'not_git' | 'auth' | 'not_found' | 'too_big' | 'timeout' | 'invalid' | 'git_failed' | 'no_skills'

/** Why installing or updating from a source failed; the message is for the person. */
/** Why a source cannot be fetched or installed, by code (error-codes.ts source.*), git's own words as a param. */
export class SourceError extends Error {
  readonly messageCode: MessageCode
  readonly params: MessageParams

  constructor(
    readonly code: SourceErrorCode,
    message: CodedText
  ) {
    super(message.text)
    this.name = 'SourceError'
    this.messageCode = message.messageCode
    this.params = message.params
  }
}

export interface GitLimits {
  /** Longest a single git command may run (default SKILLBENCH_GIT_TIMEOUT_MS or 10 minutes). */
  timeoutMs?: number
  /** Largest a fetched repository may grow in the cache (default SKILLBENCH_GIT_MAX_MB or 512 MB). */
  maxRepoBytes?: number
}

export const DEFAULT_GIT_TIMEOUT_MS = 10 * 60_000
export const DEFAULT_MAX_REPO_BYTES = 512 * 1024 * 1024

export function gitLimits(limits: GitLimits = {}, env: NodeJS.ProcessEnv = process.env): Required<GitLimits> {
  const envTimeout = Number(env.SKILLBENCH_GIT_TIMEOUT_MS)
  const envMb = Number(env.SKILLBENCH_GIT_MAX_MB)
  return {
    timeoutMs: limits.timeoutMs ?? (envTimeout > 0 ? envTimeout : DEFAULT_GIT_TIMEOUT_MS),
    maxRepoBytes: limits.maxRepoBytes ?? (envMb > 0 ? envMb * 1024 * 1024 : DEFAULT_MAX_REPO_BYTES)
  }
}

/** The environment every git run gets: nothing may prompt, nothing of the user's repo hooks runs. */
export function gitEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base }
  env.GIT_TERMINAL_PROMPT = '0'
  // An askpass program would open a dialog: an empty GIT_ASKPASS makes git skip every askpass (also core.askPass).
  env.GIT_ASKPASS = ''
  env.SSH_ASKPASS = ''
  env.SSH_ASKPASS_REQUIRE = 'never'
  env.GCM_INTERACTIVE = 'never'
  env.GIT_CONFIG_NOSYSTEM = base.GIT_CONFIG_NOSYSTEM ?? ''
  // BatchMode: ssh fails instead of asking for a passphrase or a host-key confirmation.
  if (!base.GIT_SSH_COMMAND && !base.GIT_SSH) env.GIT_SSH_COMMAND = 'ssh -o BatchMode=yes -o ConnectTimeout=30'
  env.LC_ALL = 'C' // messages in English, so failures can be recognised
  delete env.GIT_DIR
  delete env.GIT_WORK_TREE
  delete env.GIT_INDEX_FILE
  return env
}

/** Config for every run: no fsmonitor or hooks of any repo, no interactive credential helper. */
const SAFE_CONFIG = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', '-c', 'credential.interactive=never', '-c', 'protocol.ext.allow=never']

export interface GitRun {
  cwd?: string
  /** Bytes written to stdin, then closed (stdin is closed at once without it). */
  input?: Buffer | string
  signal?: AbortSignal
  timeoutMs: number
  /** A folder whose size is watched while the command runs (a fetch's objects); above `maxBytes` it is stopped. */
  watch?: { dir: string; maxBytes: number }
  env?: NodeJS.ProcessEnv
  /** A scratch index for this run (GIT_INDEX_FILE; the user's own is never inherited from the environment). */
  indexFile?: string
}

/** Bytes of the files under a folder (what a fetch has written so far). */
export function folderBytes(dir: string): number {
  let total = 0
  let entries: fs.Dirent[]
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true })
  } catch {
    return 0
  }
  for (const e of entries) {
    const p = path.join(dir, e.name)
    try {
      if (e.isDirectory()) total += folderBytes(p)
      else if (e.isFile()) total += fs.lstatSync(p).size
    } catch {
      // vanished while counting (git renames its temp packs)
    }
  }
  return total
}

/** Runs `git ...args`; resolves with stdout (bytes) or rejects with a SourceError made from stderr. */
export function runGit(args: string[], run: GitRun): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let child: ReturnType<typeof spawn>
    try {
      const env = gitEnv(run.env)
      if (run.indexFile) env.GIT_INDEX_FILE = run.indexFile
      child = spawn('git', [...SAFE_CONFIG, ...args], { cwd: run.cwd, env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true })
    } catch (err) {
      reject(spawnError(err))
      return
    }
    const out: Buffer[] = []
    let err = ''
    let stopped: SourceError | null = null
    const stop = (why: SourceError): void => {
      if (stopped) return
      stopped = why
      child.kill('SIGKILL')
    }
    const timer = setTimeout(() => stop(new SourceError('timeout', coded('source.timeout', { seconds: Math.round(run.timeoutMs / 1000) }))), run.timeoutMs)
    const watcher = run.watch
      ? setInterval(() => {
          const bytes = folderBytes(run.watch!.dir)
          if (bytes > run.watch!.maxBytes) stop(tooBig(run.watch!.maxBytes))
        }, 200)
      : undefined
    const onAbort = (): void => stop(new SourceError('timeout', coded('source.cancelled')))
    run.signal?.addEventListener('abort', onAbort, { once: true })
    child.stdout!.on('data', (d: Buffer) => out.push(d))
    child.stderr!.on('data', (d: Buffer) => {
      if (err.length < 64 * 1024) err += d.toString('utf8')
    })
    child.stdin!.on('error', () => undefined) // git may exit before reading all input
    child.stdin!.end(run.input ?? '')
    const finish = (): void => {
      clearTimeout(timer)
      if (watcher) clearInterval(watcher)
      run.signal?.removeEventListener('abort', onAbort)
    }
    child.on('error', (e) => {
      finish()
      reject(spawnError(e))
    })
    child.on('close', (code) => {
      finish()
      if (stopped) reject(stopped)
      else if (code === 0) resolve(Buffer.concat(out))
      else reject(gitFailure(args, err, remoteFacts(args)))
    })
  })
}

function spawnError(err: unknown): SourceError {
  const code = (err as NodeJS.ErrnoException).code
  if (code === 'ENOENT') return new SourceError('git_missing', coded('source.git_missing'))
  return new SourceError('git_failed', coded('source.git_not_started', { detail: (err as Error).message }))
}

export function tooBig(maxBytes: number): SourceError {
  return new SourceError('too_big', coded('source.repo_too_big', { mb: Math.round(maxBytes / (1024 * 1024)) }))
}

/** The repository a `ls-remote` or `fetch` run reads (the argument after `--`), without any user:password in it. Pure. */
export function remoteOf(args: readonly string[]): string | undefined {
  const command = args.find((a) => a === 'ls-remote' || a === 'fetch')
  const dashes = args.indexOf('--')
  if (!command || dashes < 0 || dashes + 1 >= args.length) return undefined
  return args[dashes + 1]!.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1')
}

/** The local folder a `file://` URL or a plain path names (undefined for a remote URL). Pure. */
function localPathOf(url: string): string | undefined {
  if (/^file:\/\//i.test(url)) {
    try {
      return fileURLToPath(url)
    } catch {
      return undefined
    }
  }
  return path.isAbsolute(url) ? url : undefined
}

/** What git was reading when it failed: the repository, and for a local one whether its folder exists. */
export interface GitRemote {
  url: string
  /** For a file:// URL or a folder: whether that folder is there (git says the same thing for "missing" and "not a repository"). */
  localExists?: boolean
}

/** The remote of a failed run, with the one fact about a local folder that git's words cannot tell. */
function remoteFacts(args: readonly string[]): GitRemote | undefined {
  const url = remoteOf(args)
  if (url === undefined) return undefined
  const local = localPathOf(url)
  return local === undefined ? { url } : { url, localExists: fs.existsSync(local) }
}

const AUTH = /terminal prompts disabled|could not read (Username|Password)|Authentication failed|authentication required|Permission denied \(publickey|Host key verification failed|HTTP Basic: Access denied|returned error: 40[13]|invalid credentials|Invalid username or password/i
const NETWORK = /Could not resolve host|Could not resolve hostname|Failed to connect to|Couldn't connect to server|Connection refused|Connection timed out|Network is unreachable|No route to host|Operation timed out|Temporary failure in name resolution/i
const MISSING = /Repository not found|repository .* not found|returned error: 404|not found: did you run git update-server-info/i
const NOT_REPO = /does not appear to be a git repository|not a git repository/i

/** How much of git's own text a message quotes: at most this many lines, and this many characters in all. */
export const GIT_SAID_LINES = 3
export const GIT_SAID_CHARS = 300

// git's lines that say nothing about why: progress, hints, the generic lines after a failed remote's reason
const GIT_NOISE =
  /^(?:remote: )?(?:Enumerating|Counting|Compressing|Receiving|Resolving|Writing|Total|Unpacking) |^hint:|^fatal: Could not read from remote repository\.?$|^Please make sure you have the correct access rights|^and the repository exists\.?$/i

/**
 * git's stderr as one line a person can read beside the message (`git said: …`): progress lines and git's generic
 * advice dropped (unless that is all it said), its `fatal:`/`error:` and refused-ref (`! [rejected] …`) lines when it has any (else every line), the last ones kept (git says what
 * finally failed last) up to GIT_SAID_LINES, within GIT_SAID_CHARS: earlier lines go first, then one line still too
 * long keeps its start and its end (where git names the cause) around an ellipsis. Pure.
 */
export function gitSaid(stderr: string): string {
  const all = stderr
    .split('\n')
    // a progress line rewritten in place: only what was last written on it
    .map((l) => (l.split('\r').filter((part) => part.trim() !== '').at(-1) ?? '').replace(/\s+/g, ' ').trim())
    .filter((l) => l !== '')
  const told = all.filter((l) => !GIT_NOISE.test(l))
  const lines = told.length > 0 ? told : all
  // a refused ref's status line (`! [rejected] main -> main (fetch first)`) is the cause of a push's error line
  const errors = lines.filter((l) => /^(?:fatal|error):|^! \[/i.test(l))
  const kept = (errors.length > 0 ? errors : lines).slice(-GIT_SAID_LINES)
  while (kept.length > 1 && kept.join(' ').length > GIT_SAID_CHARS) kept.shift()
  const said = kept.join(' ')
  if ([...said].length <= GIT_SAID_CHARS) return said
  const chars = [...said]
  const head = Math.floor(GIT_SAID_CHARS / 3)
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - (GIT_SAID_CHARS - head - 1)).join('')}`
}

/**
 * A git failure in the user's words, from git's exit and stderr: the repository is missing, the network is down,
 * it needs credentials, it is no git repository, else "git could not fetch URL"; git's own last lines follow as
 * `detail`, on a line of their own. Pure.
 */
export function gitFailure(args: readonly string[], stderr: string, remote?: GitRemote): SourceError {
  const text = stderr.trim()
  const detail: MessageParams[string] = gitSaid(text) || coded('source.no_message')
  const url = remote?.url ?? ''
  if (AUTH.test(text)) return new SourceError('auth', coded('source.auth', { detail }))
  if (/couldn't find remote ref|unknown revision|not our ref|bad revision|invalid refspec/i.test(text)) {
    return new SourceError('not_found', coded('source.no_revision', { detail }))
  }
  if (remote) {
    if (NETWORK.test(text)) return new SourceError('not_git', coded('source.no_network', { url, detail }))
    // a folder that is there but holds no repository; for a remote, git's "does not appear" is a repository not there
    if (NOT_REPO.test(text) && remote.localExists === true) return new SourceError('not_git', coded('source.not_a_repo', { url, detail }))
    if (MISSING.test(text) || NOT_REPO.test(text)) return new SourceError('not_git', coded('source.repo_not_found', { url, detail }))
    return new SourceError('git_failed', coded('source.fetch_failed', { url, detail }))
  }
  if (MISSING.test(text) || NOT_REPO.test(text) || NETWORK.test(text) || /unable to find remote helper|no such file or directory/i.test(text)) {
    return new SourceError('not_git', coded('source.unreadable_repo', { detail }))
  }
  return new SourceError('git_failed', coded('source.git_failed', { command: args.find((a) => !a.startsWith('-') && !a.includes('=')) ?? '', detail }))
}

/** Fails with git_missing when git cannot run at all. */
export async function gitVersion(env?: NodeJS.ProcessEnv): Promise<string> {
  return (await runGit(['--version'], { timeoutMs: 30_000, env })).toString('utf8').trim()
}

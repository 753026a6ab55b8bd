/**
 * What a SOURCE argument names: a git URL (https, http, ssh, git, file, or `user@host:path`) or a local
 * repository folder. Pure apart from looking at a local folder. The recorded form never keeps credentials.
 */
import fs from 'node:fs'
import path from 'node:path'
import { SourceError } from './git'

export interface SourceSpec {
  /** What git is given (a URL as typed, or the local repository's absolute path). */
  url: string
  /** What is recorded in provenance and shown: credentials removed. */
  display: string
  local: boolean
}

const ALLOWED_SCHEMES = new Set(['https', 'http', 'ssh', 'git', 'file'])
const SCP_LIKE = /^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:(?!\/\/)[^\s]+$/

/** The URL with any user name or password / token removed (kept for ssh, where the user is not a secret). Pure. */
export function redactUrl(url: string): string {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/@\s]*)@/i.exec(url)
  if (!m) return url
  const scheme = m[1]!.toLowerCase()
  const user = m[2]!
  if ((scheme === 'ssh' || scheme === 'git') && !user.includes(':')) return url
  return `${m[1]}://${url.slice(m[0].length)}`
}

/** True when `dir` looks like a git repository: a work tree with `.git`, or a bare repository. */
function isGitRepository(dir: string): boolean {
  if (fs.existsSync(path.join(dir, '.git'))) return true
  return ['HEAD', 'objects', 'refs'].every((n) => fs.existsSync(path.join(dir, n)))
}

/** Parses SOURCE; throws SourceError('not_git') with the reason when it names no git repository. */
export function parseSource(source: string, cwd: string): SourceSpec {
  const s = source.trim()
  if (s === '') throw new SourceError('invalid', 'give a git URL or a local repository folder')
  if (s.startsWith('-')) throw new SourceError('invalid', `not a source: ${JSON.stringify(s.slice(0, 80))} (a git URL or folder cannot start with "-")`)
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(s)) throw new SourceError('invalid', 'the source contains a control character')
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(s)?.[1]?.toLowerCase()
  if (scheme) {
    if (!ALLOWED_SCHEMES.has(scheme)) throw new SourceError('not_git', `not a git URL: ${redactUrl(s)} (use https://, ssh://, git://, file:// or a local repository folder)`)
    return { url: s, display: redactUrl(s), local: false }
  }
  if (/^[a-z][a-z0-9+.-]*::/i.test(s)) throw new SourceError('not_git', `not a git URL: ${s.slice(0, 80)} (remote helpers are not used)`)
  if (SCP_LIKE.test(s)) return { url: s, display: s, local: false }
  const abs = path.resolve(cwd, s)
  let st: fs.Stats
  try {
    st = fs.statSync(abs)
  } catch {
    const hint = /^[\w.-]+\/[\w.-]+$/.test(s) ? ` (for GitHub, give the whole URL: https://github.com/${s})` : ''
    throw new SourceError('not_git', `not a git URL, and no folder ${abs} exists${hint}`)
  }
  if (!st.isDirectory()) throw new SourceError('not_git', `${abs} is a file, not a git repository`)
  const real = fs.realpathSync(abs)
  if (!isGitRepository(real)) throw new SourceError('not_git', `${real} is not a git repository (to bring in skills from a plain folder, use skillbench import --from ${real})`)
  return { url: real, display: real, local: true }
}

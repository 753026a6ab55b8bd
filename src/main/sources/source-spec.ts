/**
 * What a SOURCE argument names: a git URL (https, http, ssh, git, file, or `user@host:path`) or a local
 * repository folder. Pure apart from looking at a local folder. The recorded form never keeps credentials.
 */
import fs from 'node:fs'
import path from 'node:path'
import { SourceError } from './git'
import { coded } from '../../shared/error-codes'

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
  if (s === '') throw new SourceError('invalid', coded('source.empty'))
  if (s.startsWith('-')) throw new SourceError('invalid', coded('source.dash', { source: JSON.stringify(s.slice(0, 80)) }))
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(s)) throw new SourceError('invalid', coded('source.control_char'))
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(s)?.[1]?.toLowerCase()
  if (scheme) {
    if (!ALLOWED_SCHEMES.has(scheme)) throw new SourceError('not_git', coded('source.bad_scheme', { source: redactUrl(s) }))
    return { url: s, display: redactUrl(s), local: false }
  }
  if (/^[a-z][a-z0-9+.-]*::/i.test(s)) throw new SourceError('not_git', coded('source.remote_helper', { source: s.slice(0, 80) }))
  if (SCP_LIKE.test(s)) return { url: s, display: s, local: false }
  const abs = path.resolve(cwd, s)
  let st: fs.Stats
  try {
    st = fs.statSync(abs)
  } catch {
    const github = /^[\w.-]+\/[\w.-]+$/.test(s)
    throw new SourceError('not_git', github ? coded('source.no_folder_github', { path: abs, repo: s }) : coded('source.no_folder', { path: abs }))
  }
  if (!st.isDirectory()) throw new SourceError('not_git', coded('source.is_file', { path: abs }))
  const real = fs.realpathSync(abs)
  if (!isGitRepository(real)) throw new SourceError('not_git', coded('source.not_repo', { path: real }))
  return { url: real, display: real, local: true }
}

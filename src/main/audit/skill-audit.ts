/**
 * The audit of one skill: its files' text rules and its packaging (links out of the skill, compiled executables
 * without their source, files too large to review). Works on bytes already read, from a folder or a git tree.
 * Pure.
 */
import path from 'node:path'
import { auditText } from './text-audit'
import { sortFindings, type AuditFinding } from './types'

/** Files larger than this are not read and are reported: nobody reviews them, and agents should not load them. */
export const AUDIT_MAX_FILE_BYTES = 5 * 1024 * 1024

export interface AuditFile {
  /** Path inside the skill folder, `/`-separated. */
  rel: string
  size: number
  /** The bytes (absent for links and for files over the size limit). */
  bytes?: Uint8Array
  executable?: boolean
  /** For a symbolic link: its target as written. */
  linkTarget?: string
}

const SOURCE_EXT = /\.(?:c|cc|cpp|cxx|h|hpp|go|rs|zig|java|kt|swift|m|mm|cs|nim|d|pas|asm|s)$/i

/** What kind of compiled program the bytes are, from their first bytes; null for anything else. */
export function binaryKind(bytes: Uint8Array): string | null {
  if (bytes.length < 4) return null
  const [a, b, c, d] = [bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!]
  if (a === 0x7f && b === 0x45 && c === 0x4c && d === 0x46) return 'ELF executable'
  if (a === 0x4d && b === 0x5a) return 'Windows executable (PE)'
  const magic = ((a << 24) | (b << 16) | (c << 8) | d) >>> 0
  if ([0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe].includes(magic)) return 'Mach-O executable'
  if (magic === 0xcafebabe) return bytes.length > 8 && bytes[7]! >= 45 ? 'Java class file' : 'Mach-O universal executable'
  if (a === 0x00 && b === 0x61 && c === 0x73 && d === 0x6d) return 'WebAssembly module'
  return null
}

/** True when the bytes look like text a person can read (no NUL in the first 8 KB). */
export function looksLikeText(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8192)
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return false
  return true
}

/** Where a link inside the skill folder leads, from the folder; null when it leaves it. */
function linkInside(rel: string, target: string): string | null {
  if (target === '' || target.startsWith('/') || /^[A-Za-z]:[\\/]/.test(target) || target.startsWith('~')) return null
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(rel), target.replace(/\\/g, '/')))
  return joined === '..' || joined.startsWith('../') ? null : joined
}

/** Markdown links and images whose target is a local path out of the skill folder. */
const MD_LINK = /!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g

function linkFindings(skill: string, rel: string, text: string): AuditFinding[] {
  if (!/\.(?:md|markdown|mdx)$/i.test(rel)) return []
  const out: AuditFinding[] = []
  const lines = text.split('\n')
  lines.forEach((line, i) => {
    if (!line.includes('](')) return
    for (const m of line.matchAll(MD_LINK)) {
      const target = m[1]!
      if (/^(?:[a-z][a-z0-9+.-]*:(?!\/\/\/)|#|mailto:)/i.test(target) && !/^file:/i.test(target)) continue // web links and anchors
      const local = target.replace(/^file:\/\//i, '').replace(/[#?].*$/, '')
      if (/^(?:\/|~|[A-Za-z]:[\\/])/.test(local)) {
        out.push({ skill, file: rel, line: i + 1, rule: 'link-out', severity: 'medium', message: `links to ${local.slice(0, 120)}, a path on the user's machine outside the skill: an agent following it reads a file the skill does not ship`, excerpt: line.trim().slice(0, 200) })
      } else if (linkInside(rel, safeDecodeUri(local)) === null) {
        out.push({ skill, file: rel, line: i + 1, rule: 'link-out', severity: 'low', message: `links to ${local.slice(0, 120)}, outside the skill's folder: it is not installed with the skill`, excerpt: line.trim().slice(0, 200) })
      }
    }
  })
  return out
}

function safeDecodeUri(s: string): string {
  try {
    return decodeURI(s)
  } catch {
    return s
  }
}

/** Every finding of a skill's files, sorted. */
export function auditSkill(skill: string, files: readonly AuditFile[]): AuditFinding[] {
  const findings: AuditFinding[] = []
  const rels = new Set(files.map((f) => f.rel))
  for (const f of files) {
    if (f.linkTarget !== undefined) {
      if (linkInside(f.rel, f.linkTarget) === null) findings.push({ skill, file: f.rel, line: 0, rule: 'link-out', severity: 'high', message: `symbolic link to ${f.linkTarget.slice(0, 160)}, outside the skill's folder: it exposes (or replaces) a file of the user's machine` })
      continue
    }
    if (f.size > AUDIT_MAX_FILE_BYTES) {
      findings.push({ skill, file: f.rel, line: 0, rule: 'file-too-large', severity: 'medium', message: `${(f.size / (1024 * 1024)).toFixed(1)} MB, over the ${AUDIT_MAX_FILE_BYTES / (1024 * 1024)} MB a skill file may have: too large to review, not read` })
      continue
    }
    if (!f.bytes) continue
    const kind = binaryKind(f.bytes)
    if (kind) {
      const stem = f.rel.replace(/\.[^./]+$/, '')
      const source = [...rels].find((r) => r !== f.rel && SOURCE_EXT.test(r) && (r.replace(/\.[^./]+$/, '') === stem || path.posix.dirname(r) === path.posix.dirname(f.rel)))
      findings.push(
        source
          ? { skill, file: f.rel, line: 0, rule: 'executable-without-source', severity: 'medium', message: `${kind} shipped beside its source (${source}): check that it was built from it` }
          : { skill, file: f.rel, line: 0, rule: 'executable-without-source', severity: 'high', message: `${kind} without its source: a compiled program nobody can review runs with the user's rights` }
      )
      continue
    }
    if (!looksLikeText(f.bytes)) continue
    const text = Buffer.from(f.bytes.buffer, f.bytes.byteOffset, f.bytes.byteLength).toString('utf8')
    findings.push(...auditText(skill, f.rel, text), ...linkFindings(skill, f.rel, text))
  }
  return sortFindings(findings)
}

import type { LlmToolCall } from '../llm/types'
import { clip, oneLine } from './text-utils'

/** A model's reflection answer, read tolerantly. */
export interface ParsedReflection {
  /** The reflection text before the markers (trimmed, capped). */
  reflection: string
  /** Safe workspace-relative paths (deduplicated, forward slashes). */
  filesToBackup: string[]
  /** Paths the model named that were refused (absolute, `..`, odd characters…), for the log. */
  rejectedPaths: string[]
  /** '' when the model gave none. */
  usageConditions: string
}

/** Caps that keep a runaway answer from becoming a runaway skill file. */
export const ANSWER_LIMITS = { reflectionChars: 60_000, files: 50, pathChars: 400, usageChars: 500 }

// a marker line: the marker name, then a colon (text may follow) or nothing else on the line
const MARKER = /^[ \t>*#_`-]*(files[ _-]?to[ _-]?backup|usage[ _-]?conditions)[ \t*_`]*(?:[:：][ \t*_`]*(.*)|$)/i

/**
 * Parses the plain-text answer: reflection, then `FILES_TO_BACKUP:` (one path per line) and
 * `USAGE_CONDITIONS:` (one line). Tolerates missing markers, any case, Markdown decoration around the
 * markers, code fences, bullets and quotes around paths. `copy_skill_files` tool calls add files.
 */
export function parseReflectionAnswer(text: string, toolCalls: readonly LlmToolCall[] = []): ParsedReflection {
  const lines = stripOuterFence(String(text ?? '').replace(/\r\n?/g, '\n')).split('\n')
  const body: string[] = []
  const fileLines: string[] = []
  let usage = ''
  let section: 'body' | 'files' | 'usage' = 'body'
  for (const line of lines) {
    const m = MARKER.exec(line)
    if (m) {
      const kind = m[1]!.toLowerCase().startsWith('files') ? 'files' : 'usage'
      section = kind
      const rest = (m[2] ?? '').trim()
      if (kind === 'files' && rest) {
        fileLines.push(rest)
      } else if (kind === 'usage' && rest && !usage) {
        usage = rest
      }
      continue
    }
    if (section === 'body') {
      body.push(line)
    } else if (section === 'files') {
      fileLines.push(line)
    } else if (!usage && line.trim() && !/^```/.test(line.trim())) {
      usage = line.trim()
    }
  }

  const candidates: string[] = [...fileLines.flatMap(splitPathLine)]
  for (const call of toolCalls) {
    if (call.name === 'copy_skill_files') {
      candidates.push(...pathsFromToolArguments(call.arguments))
    }
  }
  const filesToBackup: string[] = []
  const rejectedPaths: string[] = []
  for (const raw of candidates) {
    const safe = safeWorkspacePath(raw)
    if (safe === undefined) {
      rejectedPaths.push(clip(raw, 200))
    } else if (safe && !filesToBackup.includes(safe) && filesToBackup.length < ANSWER_LIMITS.files) {
      filesToBackup.push(safe)
    }
  }

  const reflection = clip(trimBlankLines(stripTrailingFence(body)).join('\n').trim(), ANSWER_LIMITS.reflectionChars)
  return {
    reflection,
    filesToBackup,
    rejectedPaths,
    usageConditions: clip(oneLine(stripDecoration(usage)), ANSWER_LIMITS.usageChars)
  }
}

/** Arguments of a `copy_skill_files` call: `{file_paths: [...]}` (also `files` / `paths`); bad JSON gives nothing. */
export function pathsFromToolArguments(args: string): string[] {
  try {
    const parsed: unknown = JSON.parse(args)
    if (parsed && typeof parsed === 'object') {
      const obj = parsed as Record<string, unknown>
      const list = obj.file_paths ?? obj.files ?? obj.paths
      if (Array.isArray(list)) {
        return list.filter((p): p is string => typeof p === 'string')
      }
      if (typeof list === 'string') {
        return splitPathLine(list)
      }
    }
  } catch {
    // a model that sends broken JSON simply backs up nothing
  }
  return []
}

/**
 * A workspace-relative path, normalised; `''` for "no path" lines (none, empty, comments);
 * `undefined` when it must be refused (absolute, escaping with `..`, control characters, too long).
 */
export function safeWorkspacePath(raw: string): string | undefined | '' {
  let p = stripDecoration(raw)
  if (!p || /^(none|n\/a|无|没有|\(none\)|（无）|-)$/i.test(p) || p.startsWith('(') || p.startsWith('（')) {
    return ''
  }
  // a line that is a sentence rather than a path (spaces and no slash or dot-extension) is prose, not a path
  if (/\s/.test(p) && !/[/\\]/.test(p) && !/\.[A-Za-z0-9]{1,8}$/.test(p)) {
    return ''
  }
  if (p.length > ANSWER_LIMITS.pathChars || hasControlChar(p)) {
    return undefined
  }
  p = p.replace(/\\/g, '/')
  if (p.startsWith('/') || p.startsWith('~') || /^[A-Za-z]:/.test(p) || /^[a-z][a-z0-9+.-]*:\/\//i.test(p)) {
    return undefined
  }
  const parts: string[] = []
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') {
      continue
    }
    if (seg === '..') {
      return undefined
    }
    parts.push(seg)
  }
  // the model may prefix the workspace folder itself
  if (parts[0] === 'workspace' && parts.length > 1) {
    parts.shift()
  }
  return parts.length ? parts.join('/') : ''
}

function splitPathLine(line: string): string[] {
  const t = line.trim()
  if (!t || /^```/.test(t)) {
    return []
  }
  // "a.py, b.py" on one line
  if (t.includes(',') && !/\s/.test(t.replace(/,\s*/g, ','))) {
    return t.split(',').map((s) => s.trim())
  }
  return [t]
}

function stripDecoration(text: string): string {
  return text
    .trim()
    .replace(/^(?:[-*+•]|\d+[.)])\s+/, '')
    .replace(/^[`"'“”‘’*_]+|[`"'“”‘’*_]+$/g, '')
    .trim()
}

function stripOuterFence(text: string): string {
  const t = text.trim()
  const m = /^```[\w-]*\n([\s\S]*?)\n?```$/.exec(t)
  return m ? m[1]! : text
}

function stripTrailingFence(lines: string[]): string[] {
  const out = trimBlankLines(lines)
  // an unclosed ``` right before the markers
  const fences = out.filter((l) => /^\s*```/.test(l)).length
  if (fences % 2 === 1 && /^\s*```\s*$/.test(out[out.length - 1] ?? '')) {
    out.pop()
  }
  return out
}

function trimBlankLines(lines: string[]): string[] {
  let start = 0
  let end = lines.length
  while (start < end && !lines[start]!.trim()) start++
  while (end > start && !lines[end - 1]!.trim()) end--
  return lines.slice(start, end)
}

const GENERIC_TITLE =
  /^(reflection|task reflection|deep reflection|summary|analysis|experience|深度反思分析|任务反思|反思|总结|经验总结|任务完成情况|分析)[:：]?$/i

/**
 * A skill title from the reflection's first meaningful line (Markdown `#`, numbering and bold removed,
 * ≤ 50 chars); generic headings ("Reflection", "深度反思分析") fall back to `fallback`.
 */
export function titleFromReflection(reflection: string, fallback: string): string {
  for (const line of reflection.split('\n')) {
    const t = line
      .trim()
      .replace(/^#+\s*/, '')
      .replace(/^(?:\d+[.)、]|[-*•])\s*/, '')
      .replace(/^(?:title|标题)\s*[:：]\s*/i, '')
      .replace(/\*\*|__|`/g, '')
      .trim()
    if (!t) {
      continue
    }
    if (GENERIC_TITLE.test(t)) {
      return clip(fallback, 50)
    }
    return clip(t, 50)
  }
  return clip(fallback, 50)
}

function hasControlChar(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x20 || c === 0x7f) return true
  }
  return false
}

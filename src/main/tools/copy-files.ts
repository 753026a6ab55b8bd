/**
 * copy_skill_files: back up code and document files from an agent task's workspace into the library's
 * `codes/task_<…>/` folder and record them in the skill's `related_code`.
 *
 * Only code/document extensions; never config, images, symlinks, hard links, devices or anything whose real
 * path leaves the workspace; size-capped; every skipped file is reported with its reason. Existing backups
 * are never overwritten.
 */
import { codesDirFor } from '../../shared/legacy-paths'
import fs from 'node:fs'
import path from 'node:path'
import type { ToolResult } from '../../shared/types'
import type { SkillLibrary } from '../store/library'
import { checkRelPath, isInside } from '../store/paths'
import { readHandleAtMost } from '../store/read-at-most'
import { StoreError, type SkillStore } from '../store/types'
import { codedFieldsOf } from '../../shared/api-error'
import { codedFields } from './coded-result'
import { coded, codedList, refOf, type CodedText } from '../../shared/error-codes'

/** Extensions of code and document files that may be backed up (lower case, with the dot). */
export const COPYABLE_EXTENSIONS: ReadonlySet<string> = new Set([
  // code
  '.py', '.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx', '.java', '.kt', '.kts', '.scala', '.groovy',
  '.c', '.h', '.cc', '.cpp', '.cxx', '.hh', '.hpp', '.hxx', '.cs', '.go', '.rs', '.rb', '.php', '.swift', '.m', '.mm',
  '.dart', '.lua', '.pl', '.pm', '.r', '.jl', '.hs', '.ml', '.ex', '.exs', '.erl', '.clj', '.sh', '.bash', '.zsh',
  '.ps1', '.sql', '.vue', '.svelte', '.html', '.htm', '.css', '.scss', '.less',
  // documents
  '.md', '.markdown', '.txt', '.rst', '.adoc', '.tex', '.org'
])

export interface CopyLimits {
  maxFileBytes: number
  maxTotalBytes: number
  maxFiles: number
}

export const DEFAULT_COPY_LIMITS: CopyLimits = { maxFileBytes: 2 * 1024 * 1024, maxTotalBytes: 20 * 1024 * 1024, maxFiles: 100 }

type CopyStore = SkillStore & Partial<Pick<SkillLibrary, 'writeBytes'>>

/** `codes/` sub-folder of a skill: its first task folder with `output_` → `task_` (else `task_<skill_id>`). */
export function codesFolderFor(skill: { skill_id: string; task_directories: string[] }): string {
  const first = skill.task_directories.find((t) => typeof t === 'string' && t.trim() !== '')
  if (first) {
    const base = first.replace(/\\/g, '/').split('/').filter(Boolean).pop() ?? ''
    const name = base.startsWith('output_') ? `task_${base.slice('output_'.length)}` : base.startsWith('task_') ? base : `task_${base}`
    try {
      checkRelPath(name)
      return name
    } catch {
      // Fall through to the id-based name.
    }
  }
  return `task_${skill.skill_id}`
}

interface Skipped {
  path: string
  reason: string
}

/** A skipped file as the answer lists it (its reason in English) and the reason by code (for the message's code). */
function skippedAs(path: string, reason: CodedText): Skipped & { coded: CodedText } {
  return { path, reason: reason.text, coded: reason }
}

/** Reads a workspace file safely, or says why it is skipped. */
async function readWorkspaceFile(wsReal: string, input: unknown, limits: CopyLimits): Promise<{ rel: string; bytes: Buffer } | { reason: CodedText }> {
  if (typeof input !== 'string' || input.trim() === '') return { reason: coded('copy.not_a_path') }
  let rel = input.trim().replace(/^\.\//, '')
  if (path.isAbsolute(rel)) {
    const abs = path.resolve(rel)
    if (!isInside(wsReal, abs) || abs === wsReal) return { reason: coded('copy.outside') }
    rel = path.relative(wsReal, abs).split(path.sep).join('/')
  }
  try {
    rel = checkRelPath(rel)
  } catch (err) {
    // checkRelPath says why (relpath.refused_named: {path}, {why}): the why alone, by code when it came with one
    const why = codedFieldsOf(err)?.params.why ?? (err as Error).message.replace(/^path refused \([^)]*\): /, '')
    return { reason: coded('copy.not_allowed', { why }) }
  }
  const ext = path.extname(rel).toLowerCase()
  if (!COPYABLE_EXTENSIONS.has(ext)) return { reason: coded('copy.extension', { ext: ext || refOf(coded('copy.no_extension')) }) }
  const abs = path.join(wsReal, rel)
  let st: fs.Stats
  try {
    st = await fs.promises.lstat(abs)
  } catch {
    return { reason: coded('copy.not_found') }
  }
  if (st.isSymbolicLink()) return { reason: coded('copy.symlink') }
  if (!st.isFile()) return { reason: coded('copy.not_regular') }
  let real: string
  try {
    real = await fs.promises.realpath(abs)
  } catch {
    return { reason: coded('copy.not_found') }
  }
  if (!isInside(wsReal, real)) return { reason: coded('copy.real_path_outside') }
  if (st.nlink > 1) return { reason: coded('copy.hard_link') }
  if (st.size > limits.maxFileBytes) return { reason: coded('copy.larger_than', { kb: Math.round(limits.maxFileBytes / 1024) }) }
  // O_NOFOLLOW + fstat: a file swapped for a link after the checks is refused, not followed.
  let fh: fs.promises.FileHandle
  try {
    fh = await fs.promises.open(abs, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0))
  } catch {
    return { reason: coded('copy.cannot_open') }
  }
  try {
    const fst = await fh.stat()
    if (!fst.isFile() || fst.ino !== st.ino || fst.size > limits.maxFileBytes) return { reason: coded('copy.changed') }
    // at most the limit is read: a file that grew since the fstat changed under us
    const bytes = await readHandleAtMost(fh, fst.size, limits.maxFileBytes)
    return bytes ? { rel, bytes } : { reason: coded('copy.changed') }
  } finally {
    await fh.close()
  }
}

/** related_code (comma-separated paths) with `paths` added: each path once, the existing order kept. Pure. */
export function mergeRelatedCode(relatedCode: string, paths: readonly string[]): string {
  const out: string[] = []
  for (const p of [...relatedCode.split(','), ...paths].map((x) => x.trim())) {
    if (p && !out.includes(p)) out.push(p)
  }
  const merged = out.join(', ')
  // Unchanged content keeps its exact text (no rewrite just to normalise spacing).
  return out.length === relatedCode.split(',').map((x) => x.trim()).filter(Boolean).length ? relatedCode : merged
}

/** Why a file could not be written: the store's coded reason (its English's first line), else its words. */
function copyFailure(err: unknown): CodedText {
  const text = err instanceof Error ? (err.message.split('\n')[0] ?? '') : ''
  const fields = codedFieldsOf(err)
  if (fields) return { ...fields, text }
  return coded('copy.other', { reason: text })
}

/** Copies workspace files into `codes/<task>/…` and records them in the skill's related_code. */
export async function copySkillFiles(
  store: CopyStore,
  skillId: string,
  filePaths: unknown[],
  workspace: string,
  limitsIn: Partial<CopyLimits> = {}
): Promise<ToolResult> {
  const limits = { ...DEFAULT_COPY_LIMITS, ...limitsIn }
  let wsReal: string
  const notFound = coded('tool.workspace_not_found', { path: workspace })
  const noWorkspace = { status: 'error' as const, message: notFound.text, skill_id: skillId, ...codedFields(notFound) }
  try {
    wsReal = await fs.promises.realpath(workspace)
  } catch {
    return noWorkspace
  }
  if (!(await fs.promises.stat(wsReal).then((st) => st.isDirectory(), () => false))) return noWorkspace
  const skill = await store.get(skillId)
  const folder = codesFolderFor(skill)
  // AGIAgent's codes/ beside its skills; a SKILL.md library keeps it under .skillbench/ (the folder stays what agents load)
  const codes = codesDirFor(skill.format)
  const copied: string[] = []
  const unchanged: string[] = []
  const skipped: Array<Skipped & { coded: CodedText }> = []
  let total = 0
  for (const [i, input] of filePaths.entries()) {
    const shown = typeof input === 'string' ? input : String(input)
    if (i >= limits.maxFiles) {
      skipped.push(skippedAs(shown, coded('copy.too_many', { max: limits.maxFiles })))
      continue
    }
    const got = await readWorkspaceFile(wsReal, input, limits)
    if ('reason' in got) {
      skipped.push(skippedAs(shown, got.reason))
      continue
    }
    if (total + got.bytes.length > limits.maxTotalBytes) {
      skipped.push(skippedAs(shown, coded('copy.total_cap', { mb: Math.round(limits.maxTotalBytes / 1024 / 1024) })))
      continue
    }
    const dest = `${codes}/${folder}/${got.rel}`
    try {
      if (store.writeBytes) await store.writeBytes(dest, got.bytes, null)
      else {
        const text = new TextDecoder('utf-8', { fatal: true }).decode(got.bytes)
        await store.writeRaw(dest, text, null)
      }
      total += got.bytes.length
      copied.push(dest)
    } catch (err) {
      if (err instanceof StoreError && err.code === 'exists') {
        const same = await store
          .resolveInside(dest)
          .then((abs) => fs.promises.readFile(abs))
          .then((b) => b.equals(got.bytes))
          .catch(() => false)
        if (same) unchanged.push(dest)
        else skipped.push(skippedAs(shown, coded('copy.different_exists', { path: dest })))
      } else if (err instanceof TypeError) {
        skipped.push(skippedAs(shown, coded('copy.not_utf8')))
      } else {
        skipped.push(skippedAs(shown, copyFailure(err)))
      }
    }
  }
  const recorded = [...new Set([...copied, ...unchanged])]
  let related = skill.related_code
  if (recorded.length > 0) {
    // Merged into related_code as it is on disk now (inside the library lock): each file once, nothing dropped.
    const updated = await store.updateWith(skillId, (current) => {
      const merged = mergeRelatedCode(current.related_code, recorded)
      return merged === current.related_code ? null : { meta: { related_code: merged } }
    })
    related = updated.related_code
  }
  const parts = [coded('tool.copied', { n: copied.length, dir: `${codes}/${folder}/` })]
  if (unchanged.length) parts.push(coded('tool.copied_unchanged', { n: unchanged.length }))
  if (skipped.length) parts.push(coded('tool.copied_skipped', { n: skipped.length, files: refOf(codedList(skipped.map((s) => coded('tool.skipped_file', { path: s.path, reason: refOf(s.coded) })))) }))
  const message = codedList(parts)
  return {
    status: recorded.length > 0 || filePaths.length === 0 ? 'success' : 'error',
    message: message.text,
    skill_id: skillId,
    copied,
    unchanged,
    // each skipped file's reason by code beside its words (snake_case, like the rest of the answer)
    skipped: skipped.map((s) => ({ path: s.path, reason: s.reason, ...codedFields(s.coded) })),
    related_code: related,
    ...codedFields(message)
  }
}

/**
 * Entries added to a workspace's memory as one step, and taken back: what an accepted memory proposal does
 * (review/memory-proposals.ts). Every step re-reads the files under the memory lock, so entries other processes
 * added meanwhile are kept, and near-duplicates are dropped against what is there now, not what was proposed.
 */
import { LONG_TERM_HEADER } from './consolidate'
import { addLesson } from './lessons'
import { memoryPaths, readMem, realWorkspace, withMemoryLock, writeMem } from './memory-files'
import { revertBullet, upsertLongTermPreference, upsertPreference } from './preference-kv'
import { PREFERENCES_HEADER } from './preferences'
import { addProceduralRecord, parseProceduralEntry } from './procedural'
import { parseEntries } from './text'
import { CodedError } from '../../shared/api-error'
import { coded } from '../../shared/error-codes'

/** Which memory an entry goes to. Preferences go to preferences.md and long-term.md's preferences block. */
export type MemoryTarget = 'lessons' | 'preferences' | 'procedural'

export const MEMORY_TARGETS: readonly MemoryTarget[] = ['lessons', 'preferences', 'procedural']

/** The workspace-relative file of a target. */
export function targetFile(target: MemoryTarget): string {
  return `memory/${target}.md`
}

/** One bullet written into one file (and the bullet it replaced, for a key-value preference). */
export interface WrittenEntry {
  file: string
  entry: string
  replaced?: string
}

/** What a step did: each file's text before and after, and the bullets written. */
export interface MemoryStep {
  files: { file: string; before: string | null; after: string }[]
  written: WrittenEntry[]
  /** Entries left out because the file already held them (or a near-duplicate). */
  duplicates: string[]
}

/** The text one target's file would have with `entries` added (pure; for showing a proposal's change). */
export function withEntries(target: MemoryTarget, current: string | null, entries: readonly string[]): string {
  let text = current
  for (const entry of entries) text = addTo(target, text, entry).text
  return text ?? ''
}

function addTo(target: MemoryTarget, current: string | null, entry: string): { text: string; changed: boolean; replaced?: string } {
  if (target === 'lessons') {
    const r = addLesson(current, entry)
    return { text: r.text, changed: r.added }
  }
  if (target === 'procedural') {
    const rec = parseProceduralEntry(entry)
    if (!rec.tool) throw new CodedError('bad_request', coded('memory.procedural_format', { entry: entry.slice(0, 80) }))
    const r = addProceduralRecord(current, rec)
    return { text: r.text, changed: r.added }
  }
  const r = upsertPreference(current, PREFERENCES_HEADER, entry)
  return { text: r.text, changed: r.changed, ...(r.replaced !== undefined ? { replaced: r.replaced } : {}) }
}

/** Adds entries to one target under the memory lock; files written atomically, each at most once. */
export async function addMemoryEntries(workspace: string, target: MemoryTarget, entries: readonly string[]): Promise<MemoryStep> {
  const ws = await realWorkspace(workspace, true)
  const p = memoryPaths(ws)
  return withMemoryLock(ws, async () => {
    const step: MemoryStep = { files: [], written: [], duplicates: [] }
    const main = target === 'lessons' ? p.lessons : target === 'procedural' ? p.procedural : p.preferences
    const before = await readMem(ws, main)
    let text = before
    const added: string[] = []
    for (const entry of entries) {
      const r = addTo(target, text, entry)
      if (!r.changed) {
        step.duplicates.push(entry)
        continue
      }
      text = r.text
      added.push(entry)
      step.written.push({ file: targetFile(target), entry: entryAsWritten(target, r.text, entry), ...(r.replaced !== undefined ? { replaced: r.replaced } : {}) })
    }
    if (added.length > 0 && text !== null) {
      await writeMem(ws, main, text)
      step.files.push({ file: targetFile(target), before, after: text })
    }
    if (target === 'preferences' && added.length > 0) {
      // accepted preferences reach long-term memory too, as upstream's push_to_long_term does
      const ltBefore = await readMem(ws, p.longTerm)
      let lt = ltBefore
      for (const entry of added) {
        const r = upsertLongTermPreference(lt, LONG_TERM_HEADER, entry)
        if (r.changed) {
          lt = r.text
          step.written.push({ file: 'memory/long-term.md', entry, ...(r.replaced !== undefined ? { replaced: r.replaced } : {}) })
        }
      }
      if (lt !== null && lt !== ltBefore) {
        await writeMem(ws, p.longTerm, lt)
        step.files.push({ file: 'memory/long-term.md', before: ltBefore, after: lt })
      }
    }
    return step
  })
}

/** The bullet as the file holds it (a procedural record is normalised to `tool: reason`). */
function entryAsWritten(target: MemoryTarget, text: string, entry: string): string {
  if (target !== 'procedural') return entry.replace(/\s+/g, ' ').trim()
  return parseEntries(text).at(-1) ?? entry
}

const FILE_OF: Record<string, keyof ReturnType<typeof memoryPaths>> = {
  'memory/lessons.md': 'lessons',
  'memory/preferences.md': 'preferences',
  'memory/procedural.md': 'procedural',
  'memory/long-term.md': 'longTerm'
}

/**
 * Takes written entries back (undo): each bullet removed, or put back to the value it replaced. Bullets edited or
 * removed since are left as they are and reported. Returns each file's text before and after.
 */
export async function revertMemoryEntries(
  workspace: string,
  written: readonly WrittenEntry[]
): Promise<{ files: { file: string; before: string | null; after: string }[]; missing: WrittenEntry[] }> {
  const ws = await realWorkspace(workspace, false)
  const p = memoryPaths(ws)
  return withMemoryLock(ws, async () => {
    const files: { file: string; before: string | null; after: string }[] = []
    const missing: WrittenEntry[] = []
    for (const file of [...new Set(written.map((w) => w.file))]) {
      const key = FILE_OF[file]
      if (!key) throw new CodedError('bad_request', coded('memory.not_memory_file_short', { name: file.slice(0, 80) }))
      const abs = p[key]
      const before = await readMem(ws, abs)
      let text = before ?? ''
      for (const w of [...written].reverse().filter((x) => x.file === file)) {
        const r = revertBullet(text, w.entry, w.replaced)
        if (r.reverted) text = r.text
        else missing.push(w)
      }
      if (before !== null && text !== before) {
        await writeMem(ws, abs, text)
        files.push({ file, before, after: text })
      }
    }
    return { files, missing }
  })
}

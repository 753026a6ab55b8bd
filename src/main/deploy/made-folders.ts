/**
 * The folders a deploy's writes make, so that taking the deploy back (a cancel, or the next deploy's recovery after
 * a kill) removes them again: a folder made for a skill whose file was never written would otherwise stay there
 * empty, and look like a folder someone else made. Only folders that were absent before are listed, and only empty
 * ones are removed (rmdir), after the temp files a gone writer left in them: nothing anyone else put there goes.
 */
import fs from 'node:fs'
import path from 'node:path'
import { existingDirInside } from '../store/contained'
import { sweepTempFiles } from '../store/atomic'

/** Deepest first, then by name. Pure. */
export function deepestFirst(dirs: Iterable<string>): string[] {
  return [...new Set(dirs)].sort((a, b) => b.split('/').length - a.split('/').length || a.localeCompare(b))
}

/** The folders (relative to the target) that writing these files will make: absent now. */
export async function foldersToMake(targetReal: string, writes: readonly { rel: string; after: string | null }[]): Promise<string[]> {
  const made = new Set<string>()
  const there = new Set<string>()
  for (const op of writes) {
    if (op.after === null) continue
    for (let dir = path.posix.dirname(op.rel); dir !== '.' && dir !== '' && !made.has(dir) && !there.has(dir); dir = path.posix.dirname(dir)) {
      if (await fs.promises.lstat(path.join(targetReal, ...dir.split('/'))).catch(() => null)) {
        there.add(dir)
        break
      }
      made.add(dir)
    }
  }
  return deepestFirst(made)
}

/** Removes those of `dirs` that are empty but for a gone writer's temp files; returns the ones kept (something is in them). */
export async function removeMadeFolders(targetReal: string, dirs: readonly string[]): Promise<string[]> {
  const kept: string[] = []
  for (const dir of deepestFirst(dirs)) {
    const abs = await existingDirInside(targetReal, dir).catch(() => null) // a link put there is never followed
    if (!abs) continue
    await sweepTempFiles(abs)
    try {
      await fs.promises.rmdir(abs) // only succeeds when empty
    } catch {
      kept.push(dir)
    }
  }
  return kept
}

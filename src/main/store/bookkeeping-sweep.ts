/**
 * Opening a library sweeps what dead writers left in its bookkeeping: temp files in `.skillbench/` and in its
 * folders one level down (tx/, pending/, …). Live temps of this process are never swept (atomic.ts keeps them).
 */
import fs from 'node:fs'
import path from 'node:path'
import { sweepTempFiles } from './atomic'
import { existingDirInside } from './contained'

/** Temp files of dead writers in `<root>/.skillbench/` and its folders, removed; links are never entered. */
export async function sweepBookkeepingTemps(root: string): Promise<number> {
  let removed = 0
  let top: fs.Dirent[]
  try {
    const dir = await existingDirInside(root, '.skillbench')
    if (!dir) return 0
    top = await fs.promises.readdir(dir, { withFileTypes: true })
    removed += await sweepTempFiles(dir, top.map((e) => e.name))
    for (const e of top) {
      if (e.isDirectory()) removed += await sweepTempFiles(path.join(dir, e.name))
    }
  } catch {
    return removed // a symlinked or unreadable .skillbench: writers refuse it; nothing to sweep here
  }
  return removed
}

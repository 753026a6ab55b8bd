import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export const FIXTURE_LIBRARY = path.resolve(__dirname, '..', 'fixtures', 'store', 'library')

/** A fresh temp folder (removed by the OS tmp cleaner; tests remove theirs in afterAll when they can). */
export function tempDir(prefix = 'sb-store-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix))
}

/** Copies a folder tree into a new temp folder and returns the copy (tests write only into copies). */
export function copyTree(src: string, prefix = 'sb-lib-'): string {
  const dest = tempDir(prefix)
  fs.cpSync(src, dest, { recursive: true, verbatimSymlinks: true })
  return dest
}

/** path → sha256 of every file under `dir` (links by their target text), to prove a read changed nothing. */
export function hashTree(dir: string): Map<string, string> {
  const out = new Map<string, string>()
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name)
      if (e.isSymbolicLink()) out.set(p, 'link:' + fs.readlinkSync(p))
      else if (e.isDirectory()) walk(p)
      else if (!e.isFile()) out.set(p, 'special') // a FIFO would block a read
      else out.set(p, crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex'))
    }
  }
  walk(dir)
  return out
}

/** Every file name under `dir`, recursively (relative, forward slashes). */
export function listFiles(dir: string): string[] {
  return [...hashTree(dir).keys()].map((p) => path.relative(dir, p).split(path.sep).join('/')).sort()
}

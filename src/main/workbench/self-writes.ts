import { createHash } from 'node:crypto'
import { promises as fsp } from 'node:fs'

const ABSENT = 'absent'

async function hashOf(file: string): Promise<string> {
  try {
    return createHash('sha256').update(await fsp.readFile(file)).digest('hex')
  } catch {
    return ABSENT
  }
}

/**
 * Remembers what the app itself just wrote, so the watcher can drop the echo of its own writes
 * (a file whose content still equals what we wrote, or that is still absent after we moved it away).
 */
export class SelfWrites {
  private readonly notes = new Map<string, { hash: string; at: number }>()

  constructor(private readonly ttlMs = 10_000) {}

  /** Records the current content of files the app has just written or moved. */
  async note(files: readonly string[]): Promise<void> {
    const now = Date.now()
    await Promise.all(files.map(async (f) => this.notes.set(f, { hash: await hashOf(f), at: now })))
  }

  /** True when the file is still exactly as the app left it (so a change event for it is our own echo). */
  async isOwn(file: string): Promise<boolean> {
    const note = this.notes.get(file)
    if (!note) {
      return false
    }
    if (Date.now() - note.at > this.ttlMs) {
      this.notes.delete(file)
      return false
    }
    return (await hashOf(file)) === note.hash
  }
}

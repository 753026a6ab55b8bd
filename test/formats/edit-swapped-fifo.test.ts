/**
 * A FIFO swapped in for the skill file while it is being edited (after the first read, before the re-check that
 * guards the write) is refused at once as a change, never opened blocking. The swap happens at a fixed point: the
 * store's decoder, which the edit calls between its two reads, is wrapped to rename a real FIFO over the file.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { editSkillFile } from '../../src/main/formats/edit'
import { tempDir } from './helpers'
import type * as SkillFile from '../../src/main/store/skill-file'

const swap = vi.hoisted(() => ({ fifo: '', over: '' }))

vi.mock('../../src/main/store/skill-file', async (importOriginal) => {
  const real = await importOriginal<typeof SkillFile>()
  return {
    ...real,
    decodeSkillBytes: (bytes: Uint8Array) => {
      if (swap.fifo) fs.renameSync(swap.fifo, swap.over)
      return real.decodeSkillBytes(bytes)
    }
  }
})

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

describe('a FIFO swapped in during an edit', () => {
  it('is a change made while editing (coded), found at once; nothing is written', async () => {
    const root = tempDir('edit-swap')
    dirs.push(root)
    fs.mkdirSync(path.join(root, 'swapped'))
    const file = path.join(root, 'swapped', 'SKILL.md')
    fs.writeFileSync(file, '---\nname: swapped\ndescription: Swapped things. Use when swapping.\n---\n\nBody.\n')
    const fifo = path.join(root, 'pipe')
    execFileSync('mkfifo', [fifo])
    Object.assign(swap, { fifo, over: file })
    let timer: NodeJS.Timeout | undefined
    try {
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('still waiting after 3000 ms: the edit blocked on the FIFO')), 3000)
      })
      const edit = editSkillFile(file, { description: 'never written' }).then(
        () => null,
        (err: unknown) => err
      )
      const err = await Promise.race([edit, late])
      expect(err).toMatchObject({ messageCode: 'format.changed_while_editing', params: { name: 'SKILL.md' } })
      expect(fs.lstatSync(file).isFIFO()).toBe(true)
    } finally {
      clearTimeout(timer)
      swap.fifo = ''
      // a reader left blocked on the FIFO (the old code's) is given end of file, so the worker can exit
      try {
        fs.closeSync(fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK))
      } catch {
        // no reader: nothing blocked
      }
    }
  })
})

/**
 * Editing a skill file reads it as the loaders do: at most the 2 MB limit, from what was opened (a FIFO never
 * blocks, a link is refused as it always was here), and the refusal is coded. Real files, a real FIFO, real links.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { englishText } from '../../src/shared/error-codes'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { editSkillFile, hashText } from '../../src/main/formats/edit'
import { FormatError } from '../../src/main/formats/model'
import { MAX_FORMAT_FILE_BYTES } from '../../src/main/formats/tree'
import { thrownAs } from '../helpers/thrown'
import { tempDir } from './helpers'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

/** A skill folder `<tmp>/<name>/` (the SKILL.md is written by the test). */
function skillDir(name: string): string {
  const root = tempDir('edit-limit')
  dirs.push(root)
  const dir = path.join(root, name)
  fs.mkdirSync(dir)
  return dir
}

/** A SKILL.md of exactly `bytes` bytes (the body padded). */
function skillMdOf(name: string, bytes: number): Buffer {
  const head = `---\nname: ${name}\ndescription: ${name} things. Use when ${name}.\n---\n\nBody of ${name}.\n`
  const text = head + 'x'.repeat(bytes - Buffer.byteLength(head) - 1) + '\n'
  expect(Buffer.byteLength(text)).toBe(bytes)
  return Buffer.from(text)
}

/** Fails fast (rather than at the test's own timeout) when an edit hangs on a FIFO. */
function withinMs<T>(ms: number, run: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms: the edit blocked`)), ms)
  })
  return Promise.race([run, late]).finally(() => clearTimeout(timer))
}

const thrown = (run: () => Promise<unknown>): Promise<FormatError> => thrownAs(FormatError, run)

describe('editing a skill file under the size limit', () => {
  it('edits a SKILL.md of exactly the limit', async () => {
    const file = path.join(skillDir('at-limit'), 'SKILL.md')
    const bytes = skillMdOf('at-limit', MAX_FORMAT_FILE_BYTES)
    fs.writeFileSync(file, bytes)
    const r = await editSkillFile(file, { description: 'Edited at the limit. Use when testing.' }, hashText(bytes))
    const after = fs.readFileSync(file, 'utf8')
    expect(after).toContain('description: Edited at the limit. Use when testing.')
    expect(after.endsWith('x'.repeat(1000) + '\n')).toBe(true)
    expect(r.hash).toBe(hashText(fs.readFileSync(file)))
  })

  it('refuses a SKILL.md one byte over the limit, by code, and leaves it as it was', async () => {
    const file = path.join(skillDir('over-limit'), 'SKILL.md')
    const bytes = skillMdOf('over-limit', MAX_FORMAT_FILE_BYTES + 1)
    fs.writeFileSync(file, bytes)
    const e = await thrown(() => editSkillFile(file, { description: 'never written' }))
    expect(e).toMatchObject({ messageCode: 'format.file_too_large', params: { bytes: 2097152 }, message: 'file is larger than 2097152 bytes' })
    expect(englishText(e)).toBe(e.message)
    expect(translateMessage(e, e.message, 'zh')).toBe('文件超过 2097152 字节')
    expect(fs.readFileSync(file).equals(bytes)).toBe(true)
    // a much bigger one (a huge file swapped in) is refused the same way
    const huge = Buffer.alloc(16 * 1024 * 1024, 0x61)
    fs.writeFileSync(file, huge)
    await expect(editSkillFile(file, { description: 'never written' })).rejects.toMatchObject({ messageCode: 'format.file_too_large' })
    expect(fs.statSync(file).size).toBe(huge.length)
  })

  it('refuses a FIFO named SKILL.md at once, without a writer (a blocking open would hang)', async () => {
    const dir = skillDir('pipe')
    const fifo = path.join(dir, 'SKILL.md')
    execFileSync('mkfifo', [fifo])
    const started = Date.now()
    const e = await withinMs(3000, thrown(() => editSkillFile(fifo, { description: 'never written' })))
    expect(e).toMatchObject({ messageCode: 'format.not_regular', params: { path: fifo } })
    expect(translateMessage(e, e.message, 'zh')).toBe(`不是普通文件（不跟随符号链接）：${fifo}`)
    expect(Date.now() - started).toBeLessThan(3000)
    expect(fs.lstatSync(fifo).isFIFO()).toBe(true)
  })

  it('refuses a SKILL.md that is a link (to a small file or to a FIFO): the target is never read or written', async () => {
    const outside = skillDir('target')
    const target = path.join(outside, 'SKILL.md')
    const bytes = skillMdOf('target', 200)
    fs.writeFileSync(target, bytes)
    const fifo = path.join(outside, 'pipe')
    execFileSync('mkfifo', [fifo])
    for (const to of [target, fifo]) {
      const link = path.join(skillDir('linked'), 'SKILL.md')
      fs.symlinkSync(to, link)
      const e = await withinMs(3000, thrown(() => editSkillFile(link, { description: 'never written' })))
      expect(e).toMatchObject({ messageCode: 'format.not_regular', params: { path: link } })
      expect(fs.readlinkSync(link)).toBe(to)
    }
    expect(fs.readFileSync(target).equals(bytes)).toBe(true)
  })
})

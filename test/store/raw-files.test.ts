/**
 * The raw write's two gates on real files: `writablePath` (the name: inside, no temp file, no bookkeeping) before
 * the lock, `writeGuardedFile` (the disk: real folders inside the library, the target no link, the base hash) under
 * it. Whatever they refuse leaves the library and everything outside it byte for byte as it was.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { writablePath, writeGuardedFile } from '../../src/main/store/raw-files'
import { hashBytes } from '../../src/main/store/load'
import { StoreError } from '../../src/main/store/types'
import { hashTree, listFiles, tempDir } from './helpers'

const dirs: string[] = []
function dir(prefix: string): string {
  const d = tempDir(prefix)
  dirs.push(d)
  return d
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

/** The StoreError `fn` fails with (the test fails when it does not fail). */
async function refusal(fn: () => unknown): Promise<StoreError> {
  try {
    await fn()
  } catch (err) {
    expect(err).toBeInstanceOf(StoreError)
    return err as StoreError
  }
  throw new Error('expected a refusal')
}

/** A path through both gates, as the library's writeRaw takes it. */
async function write(root: string, rel: string, text: string, baseHash?: string | null): Promise<void> {
  await writeGuardedFile(root, writablePath(rel), Buffer.from(text, 'utf8'), baseHash, true)
}

describe('writablePath', () => {
  it('accepts a library path (NFC), nested folders, and the library parts kept under .skillbench/', () => {
    expect(writablePath('skill_a.md')).toBe('skill_a.md')
    expect(writablePath('codes/task_1/src/main.py')).toBe('codes/task_1/src/main.py')
    expect(writablePath('cafe\u0301/SKILL.md')).toBe('caf\u00e9/SKILL.md')
    expect(writablePath('.skillbench/legacy/old-skill/SKILL.md')).toBe('.skillbench/legacy/old-skill/SKILL.md')
    expect(writablePath('.skillbench/codes/task_1/a.py')).toBe('.skillbench/codes/task_1/a.py')
  })

  it('refuses a path out of the library, a temp file name and the bookkeeping, each with its code', async () => {
    for (const rel of ['../outside.md', 'a/../../outside.md', './a.md', '/etc/passwd', 'C:/x.md', 'a\\b.md', '', 'a//b.md', 'x\u0000.md']) {
      expect((await refusal(() => writablePath(rel))).code, rel).toBe('path_escape')
    }
    for (const rel of ['.skillbench-tmp-1234.tmp', 'sub/.skillbench-tmp-abcd.tmp']) {
      const err = await refusal(() => writablePath(rel))
      expect([err.code, err.messageCode], rel).toEqual(['invalid_input', 'file.temp_name'])
    }
    for (const rel of ['.skillbench', '.skillbench/plan.json', '.skillbench/journal.jsonl', '.skillbench/legacy', '.skillbench/legacyx/a.md']) {
      const err = await refusal(() => writablePath(rel))
      expect([err.code, err.messageCode], rel).toEqual(['invalid_input', 'file.bookkeeping'])
    }
  })
})

describe('a raw write through both gates, on real files', () => {
  it('writes a normal path (folders made), a legacy part, and nothing else: no temp file is left', async () => {
    const root = dir('sb-raw-lib-')
    await write(root, 'skill_a.md', 'one\n', null)
    await write(root, 'codes/task_1/main.py', 'print(1)\n', null)
    await write(root, '.skillbench/legacy/old/SKILL.md', 'old\n', null)
    expect(listFiles(root)).toEqual(['.skillbench/legacy/old/SKILL.md', 'codes/task_1/main.py', 'skill_a.md'])
    expect(fs.readFileSync(path.join(root, 'codes', 'task_1', 'main.py'), 'utf8')).toBe('print(1)\n')
  })

  it('refuses a folder link or a file link that leads out of the library, and a link inside it; nothing is written', async () => {
    const root = dir('sb-raw-lib-')
    const outside = dir('sb-raw-outside-')
    fs.writeFileSync(path.join(outside, 'secret.md'), 'SECRET\n')
    fs.symlinkSync(outside, path.join(root, 'linked-folder'))
    fs.symlinkSync(path.join(outside, 'secret.md'), path.join(root, 'skill_link.md'))
    fs.mkdirSync(path.join(root, 'real'))
    fs.writeFileSync(path.join(root, 'real', 'target.md'), 'inside\n')
    fs.symlinkSync(path.join(root, 'real', 'target.md'), path.join(root, 'skill_inner_link.md'))
    const outsideBefore = hashTree(outside)
    const rootBefore = hashTree(root)

    // the names pass the first gate: the disk's gate refuses them
    for (const [rel, base] of [
      ['linked-folder/secret.md', undefined],
      ['linked-folder/new.md', null],
      ['linked-folder/deeper/new.md', null],
      ['skill_link.md', undefined],
      ['skill_link.md', hashBytes(Buffer.from('SECRET\n'))],
      ['skill_inner_link.md', undefined]
    ] as const) {
      expect(writablePath(rel)).toBe(rel)
      expect((await refusal(() => write(root, rel, 'overwritten\n', base))).code, rel).toBe('path_escape')
    }
    expect(hashTree(outside)).toEqual(outsideBefore)
    expect(hashTree(root)).toEqual(rootBefore)
  })

  it('keeps the base hash: a new file only when asked for one, a rewrite only over the bytes it was read from', async () => {
    const root = dir('sb-raw-lib-')
    await write(root, 'skill_a.md', 'one\n', null)
    expect((await refusal(() => write(root, 'skill_a.md', 'two\n', null))).code).toBe('exists')
    expect((await refusal(() => write(root, 'skill_a.md', 'two\n', hashBytes(Buffer.from('stale\n'))))).code).toBe('conflict')
    expect((await refusal(() => write(root, 'skill_gone.md', 'two\n', hashBytes(Buffer.from('one\n'))))).code).toBe('conflict')
    expect(fs.existsSync(path.join(root, 'skill_gone.md'))).toBe(false)
    await write(root, 'skill_a.md', 'two\n', hashBytes(Buffer.from('one\n')))
    expect(fs.readFileSync(path.join(root, 'skill_a.md'), 'utf8')).toBe('two\n')
    // a text file that is not UTF-8 is never rewritten as text; as bytes it may be
    const bad = Buffer.from([0x66, 0x6f, 0xff, 0x0a])
    fs.writeFileSync(path.join(root, 'skill_bytes.md'), bad)
    expect((await refusal(() => write(root, 'skill_bytes.md', 'text\n'))).code).toBe('not_utf8')
    expect(fs.readFileSync(path.join(root, 'skill_bytes.md')).equals(bad)).toBe(true)
    await writeGuardedFile(root, writablePath('skill_bytes.md'), Buffer.from('ok\n'), hashBytes(bad), false)
    expect(fs.readFileSync(path.join(root, 'skill_bytes.md'), 'utf8')).toBe('ok\n')
    expect(listFiles(root)).toEqual(['skill_a.md', 'skill_bytes.md'])
  })
})

/**
 * A skill whose file is written but one of whose resources cannot be is reported as written (its file is there),
 * with that resource skipped by code — never the whole skill skipped while its SKILL.md sits in the target.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { convertTree } from '../../src/main/formats/convert'
import { tempDir } from './helpers'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

describe('convert: a resource that cannot be written', () => {
  it('reports the skill written and that resource skipped, with the rest of its resources copied', async () => {
    const base = tempDir('convert-partial')
    dirs.push(base)
    const src = path.join(base, 'src')
    const target = path.join(base, 'target')
    fs.mkdirSync(path.join(src, 'pdf-tool', 'scripts'), { recursive: true })
    fs.mkdirSync(path.join(src, 'pdf-tool', 'reference'), { recursive: true })
    fs.writeFileSync(path.join(src, 'pdf-tool', 'SKILL.md'), '---\nname: pdf-tool\ndescription: Extract tables from PDF files. Use when a PDF holds tables.\n---\n\nRun scripts/run.sh, see reference/notes.md.\n')
    fs.writeFileSync(path.join(src, 'pdf-tool', 'scripts', 'run.sh'), '#!/bin/sh\npdftotext -layout "$1"\n')
    fs.writeFileSync(path.join(src, 'pdf-tool', 'reference', 'notes.md'), 'Columns are aligned by spaces.\n')
    // In the target, `scripts` is a file: the folder the script goes in cannot be made.
    fs.mkdirSync(path.join(target, 'pdf-tool'), { recursive: true })
    fs.writeFileSync(path.join(target, 'pdf-tool', 'scripts'), 'not a folder\n')

    const report = await convertTree(src, target, 'skill-md')
    expect(report.written.map((w) => w.to)).toEqual(['pdf-tool/SKILL.md'])
    expect(fs.readFileSync(path.join(target, 'pdf-tool', 'SKILL.md'), 'utf8')).toContain('name: pdf-tool')
    expect(fs.readFileSync(path.join(target, 'pdf-tool', 'reference', 'notes.md'), 'utf8')).toBe('Columns are aligned by spaces.\n')
    expect(report.skipped).toHaveLength(1)
    const [skipped] = report.skipped
    expect(skipped).toMatchObject({ from: 'pdf-tool/scripts/run.sh', to: 'pdf-tool/scripts/run.sh', messageCode: 'convert.failed' })
    expect(skipped!.reason).toMatch(/^(EEXIST|ENOTDIR)/)
    // The file that was in the way is as it was.
    expect(fs.readFileSync(path.join(target, 'pdf-tool', 'scripts'), 'utf8')).toBe('not a folder\n')
  })
})

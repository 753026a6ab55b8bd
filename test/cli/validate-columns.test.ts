/**
 * `skillbench validate` without --json: the findings' paths are padded to the longest, so every problem starts in
 * the same terminal column (a CJK character counts two), and ok lines start their path where the others do.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../formats/helpers'
import { displayWidth } from '../../src/main/cli/text-width'
import { validateText } from '../../src/main/cli/validate-output'
import { tempDir } from '../store/helpers'

let lib: string

beforeEach(() => {
  lib = tempDir('sb-validate-cols-')
  const skill = (folder: string, front: string): void => {
    fs.mkdirSync(path.join(lib, folder), { recursive: true })
    fs.writeFileSync(path.join(lib, folder, 'SKILL.md'), `---\n${front}\n---\n# ${folder}\n`)
  }
  skill('a', 'name: a')
  skill('a-much-longer-folder-name', 'name: a-much-longer-folder-name')
  skill('数据分析', 'name: 数据分析\ndescription: 分析数据。Use when asked to analyse data.')
  skill('ok-skill', 'name: ok-skill\ndescription: Does things. Use when the user asks for things.')
})

afterEach(() => {
  fs.rmSync(lib, { recursive: true, force: true })
})

describe('validate text output', () => {
  it('lines its columns up for short, long and Chinese names', async () => {
    const r = await runCli(['validate', lib], lib, {})
    expect(r.code).toBe(1)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines.pop()).toBe('4 file(s), 3 error(s), 0 warning(s)')
    const missing = 'description is missing (required: what the skill does and when to use it, at most 1024 characters)'
    expect(lines).toEqual([
      `error   a-much-longer-folder-name/SKILL.md: ${missing}`,
      `error   a/SKILL.md:                         ${missing}`,
      'ok      ok-skill/SKILL.md',
      expect.stringMatching(/^error {3}数据分析\/SKILL\.md: {18}name "数据分析" is not kebab-case/)
    ])
    // every path starts in column 8; every problem in one column, counted in terminal columns
    const problemColumns = lines.filter((l) => !l.startsWith('ok')).map((l) => displayWidth(l.slice(0, l.search(/(description|name) /))))
    expect(new Set(problemColumns)).toEqual(new Set([8 + 'a-much-longer-folder-name/SKILL.md: '.length]))
    expect(lines.map((l) => l.slice(0, 8).trimEnd())).toEqual(['error', 'error', 'ok', 'error'])
    expect(lines.every((l) => l[8] !== ' ')).toBe(true)
  })

  it('a problem without words still reads as a problem, in the problems\' column', () => {
    const text = validateText({
      root: '/lib',
      files: [
        { path: 'a/SKILL.md', format: 'skill-md', ok: false, problems: [{ level: 'error', message: '' }] },
        { path: 'longer/SKILL.md', format: 'skill-md', ok: true, problems: [{ level: 'warning', message: '  ', messageCode: 'skill.invalid_id' }] },
        { path: 'fine/SKILL.md', format: 'skill-md', ok: true, problems: [] }
      ],
      errors: 1,
      warnings: 1
    })
    expect(text.split('\n')).toEqual([
      'error   a/SKILL.md:      (no message)',
      'warning longer/SKILL.md: (no message: skill.invalid_id)',
      'ok      fine/SKILL.md',
      '3 file(s), 1 error(s), 1 warning(s)',
      ''
    ])
  })
})

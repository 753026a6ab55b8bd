import fs from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  assertSkillId,
  buildSkillFileName,
  checkRelPath,
  derivedSkillId,
  isInside,
  isValidSkillId,
  resolveInside,
  titleStem
} from '../../src/main/store/paths'
import { StoreError } from '../../src/main/store/types'
import { hashTree, tempDir } from './helpers'

let base: string
let root: string
let outside: string

beforeAll(() => {
  base = fs.realpathSync(tempDir('sb-paths-'))
  root = path.join(base, 'lib')
  outside = path.join(base, 'lib-evil')
  fs.mkdirSync(path.join(root, 'legacy'), { recursive: true })
  fs.mkdirSync(outside)
  fs.writeFileSync(path.join(outside, 'secret.md'), 'SECRET')
  fs.writeFileSync(path.join(root, 'skill_a.md'), 'x')
  fs.symlinkSync(outside, path.join(root, 'linkdir'))
  fs.symlinkSync(path.join(outside, 'secret.md'), path.join(root, 'skill_link.md'))
  fs.symlinkSync(path.join(outside, 'missing.md'), path.join(root, 'dangling.md'))
  fs.symlinkSync(path.join(root, 'legacy'), path.join(root, 'inner-link'))
})

afterAll(() => {
  fs.rmSync(base, { recursive: true, force: true })
})

describe('skill ids', () => {
  it.each(['1768615161', '0', '0123', '12345678901234567890'])('accepts %s', (id) => {
    expect(isValidSkillId(id)).toBe(true)
    expect(assertSkillId(id)).toBe(id)
  })

  it.each(['', '..', '../1', '1/2', '1\\2', '1 ', ' 1', '1\u0000', 'abc', '１２３', '123456789012345678901', '1.5', '-1', 'skill_1', '%2e%2e'])(
    'refuses %j',
    (id) => {
      expect(isValidSkillId(id)).toBe(false)
      expect(() => assertSkillId(id)).toThrow(StoreError)
    }
  )

  it('refuses non-strings', () => {
    for (const v of [1, null, undefined, {}, ['1']]) expect(() => assertSkillId(v)).toThrow(/invalid skill id/)
  })

  it('property: accepted ids have no separator and resolve to a file directly in the library (10,000 runs)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 25 }), fc.stringMatching(/^[0-9]{1,22}$/)), (id) => {
        if (!isValidSkillId(id)) return
        expect(id).not.toMatch(/[/\\.]/)
        const p = path.resolve(root, `skill_x_${id}.md`)
        expect(path.dirname(p)).toBe(root)
      }),
      { numRuns: 10_000 }
    )
  })

  it('derived SKILL.md ids are 16 digits, stable, and the same for a folder and its legacy/ copy', () => {
    const a = derivedSkillId('tools/.system/pdf-reader')
    expect(a).toMatch(/^[1-9][0-9]{15}$/)
    expect(derivedSkillId('tools/.system/pdf-reader')).toBe(a)
    expect(derivedSkillId('legacy/tools/.system/pdf-reader')).toBe(a)
    expect(derivedSkillId('tools/.system/pdf-writer')).not.toBe(a)
  })
})

describe('resolveInside', () => {
  const hostile = [
    '../x', '../../etc/passwd', '..', '.', '', 'a/../../x', 'a/./b', 'a//b', '/etc/passwd', '/', 'C:\\Windows\\x', 'C:/x', 'c:x',
    '\\\\srv\\share', '\\\\?\\C:\\x', '..\\x', 'a\\..\\..\\x', 'skill_a\u0000.md', 'a\nb', 'CON.md', 'nul', 'legacy/AUX', 'skill_a.', 'skill_a ',
    'x'.repeat(1100), '../lib-evil/secret.md', 'linkdir/secret.md', 'linkdir', 'skill_link.md', 'dangling.md', 'linkdir/new-file.md',
    'linkdir/sub/new.md', 'legacy/../../lib-evil/secret.md', './skill_a.md', 'legacy/', '/lib/skill_a.md', `${'../'.repeat(20)}etc`, 'a/b/..',
    '..%2f..%2fetc', '\u2025/x', 'linkdir/../skill_a.md', 'LPT1.txt', 'com3', 'a/b. ', 'skill\u007f.md', '\u0000', '../lib', 'legacy/..'
  ]

  it(`refuses ${hostile.length} hostile paths, and the outside folder is untouched`, async () => {
    const before = hashTree(outside)
    const accepted: string[] = []
    let refused = 0
    for (const rel of hostile) {
      try {
        const abs = await resolveInside(root, rel)
        // Only harmless look-alikes may pass, and they must be inside.
        accepted.push(rel)
        expect(isInside(root, abs)).toBe(true)
        expect(fs.existsSync(abs) ? isInside(root, fs.realpathSync(abs)) : true).toBe(true)
      } catch (err) {
        expect(err).toBeInstanceOf(StoreError)
        expect((err as StoreError).code).toBe('path_escape')
        refused++
      }
    }
    expect(accepted).toEqual(['..%2f..%2fetc', '\u2025/x'])
    expect(refused).toBeGreaterThanOrEqual(40)
    expect(hashTree(outside)).toEqual(before)
  })

  it('accepts ordinary paths, including new files, and symlinks that stay inside', async () => {
    expect(await resolveInside(root, 'skill_a.md')).toBe(path.join(root, 'skill_a.md'))
    expect(await resolveInside(root, 'legacy/new/deeper/file.md')).toBe(path.join(root, 'legacy/new/deeper/file.md'))
    expect(await resolveInside(root, 'inner-link/x.md')).toBe(path.join(root, 'inner-link/x.md'))
    expect(await resolveInside(root, '.system/pdf/SKILL.md')).toBe(path.join(root, '.system/pdf/SKILL.md'))
    expect(await resolveInside(root, 'codes/task_1/中文 文件.py')).toBe(path.join(root, 'codes/task_1/中文 文件.py'))
  })

  it('compares with a trailing separator: a sibling with the root as prefix is outside', () => {
    expect(isInside('/a/lib', '/a/lib-evil/x')).toBe(false)
    expect(isInside('/a/lib', '/a/lib/x')).toBe(true)
    expect(isInside('/a/lib', '/a/lib')).toBe(true)
  })

  it('property: every accepted path resolves inside the root, also through real paths (10,000 runs)', async () => {
    const seg = fc.oneof(
      fc.constantFrom('..', '.', '', 'legacy', 'linkdir', 'inner-link', 'skill_a.md', 'skill_link.md', 'a', 'b.md', '中文', 'x y', '.hidden', '\\', '..\\', 'C:', '\u0000'),
      fc.string({ maxLength: 6 })
    )
    await fc.assert(
      fc.asyncProperty(fc.array(seg, { minLength: 1, maxLength: 5 }), fc.boolean(), async (segs, abs) => {
        const rel = (abs ? '/' : '') + segs.join('/')
        let resolved: string
        try {
          resolved = await resolveInside(root, rel)
        } catch (err) {
          expect(err).toBeInstanceOf(StoreError)
          return
        }
        expect(isInside(root, resolved)).toBe(true)
        // The real path of the deepest existing ancestor is inside too.
        let probe = resolved
        while (!fs.existsSync(probe)) probe = path.dirname(probe)
        expect(isInside(root, fs.realpathSync(probe))).toBe(true)
      }),
      { numRuns: 10_000 }
    )
  })

  it('checkRelPath normalises to NFC', () => {
    expect(checkRelPath('cafe\u0301.md')).toBe('caf\u00e9.md')
  })
})

describe('skill file names', () => {
  const none = (): boolean => false

  it.each([
    ['任务完成情况：任务未完成，用户中断了执行', 'skill_任务完成情况：任务未完成，用户中断了执行.md'],
    ['任务成功完成，用户需求得到完全满足，生成了包含完整功能', 'skill_任务成功完成，用户需求得到完全满足，生成.md'],
    ['## 深度反思分析', 'skill_深度反思分析.md'],
    ['1. 任务完成情况', 'skill_任务完成情况.md'],
    ['**粗体标题**：后面', 'skill_粗体标题：后面.md'],
    ['a/b\\c:d*e?f"g<h>i|j', 'skill_abcdefghij.md'],
    ['Sort a CSV file by a column with pandas', 'skill_Sort a CSV file by a.md'],
    ['  ...dots and spaces...  ', 'skill_dots and spaces.md'],
    ['tab\there\u0007bell', 'skill_tabherebell.md'],
    ['', 'skill_untitled.md'],
    ['???', 'skill_untitled.md'],
    ['CON', 'skill_CON_.md'],
    ['😀 emoji title that is long', 'skill_😀 emoji title that.md'],
    // issue 36: a Latin word is never cut in two
    ['Great, but keep in mind that new file', 'skill_Great, but keep in.md'],
    ['Configurecompactionthreshold', 'skill_Configurecompactiont.md'],
    ['Research three open-source licences', 'skill_Research three.md'],
    ['Rename the user_profile table', 'skill_Rename the.md']
  ])('%j → %s', (title, expected) => {
    expect(buildSkillFileName(title, '1768615161', none)).toBe(expected)
  })

  it('appends _<skill_id> on collision, then a counter', () => {
    const taken = new Set(['skill_标题.md'])
    expect(buildSkillFileName('标题', '1768615161', (n) => taken.has(n))).toBe('skill_标题_1768615161.md')
    taken.add('skill_标题_1768615161.md')
    expect(buildSkillFileName('标题', '1768615161', (n) => taken.has(n))).toBe('skill_标题_1768615161_2.md')
  })

  it('property: names never contain unsafe characters and keep at most 20 title characters (2,000 runs)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (title) => {
        const stem = titleStem(title)
        // eslint-disable-next-line no-control-regex
        expect(stem).not.toMatch(/[<>:"/\\|?*\u0000-\u001f]/)
        expect(Array.from(stem).length).toBeLessThanOrEqual(21)
        expect(stem.length).toBeGreaterThan(0)
        const name = buildSkillFileName(title, '1', none)
        expect(() => checkRelPath(name)).not.toThrow()
      }),
      { numRuns: 2000 }
    )
  })
})

/**
 * Why a skill file does not load travels by code (shared/error-codes.ts) beside its English words: malformed files
 * on disk, listed by the store, carry `messageCode` + `params`, their `reason` keeps the words it always had, and
 * the Chinese comes from the code (issue 40, part 4).
 */
import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { englishText, type MessageRef } from '../../src/shared/error-codes'
import type { LoadError } from '../../src/shared/types'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { openLibrary } from '../../src/main/store/library'
import { parseReasonParam, parseSkillText } from '../../src/main/store/skill-file'
import { locateSkillProblem } from '../../src/shared/problem-position'
import { makeBrokenLibrary, makeUnclosedLibrary, MULTILINE_OK, UNCLOSED_CASES } from './broken-library'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

const byPath = (errors: LoadError[]): Map<string, LoadError> => new Map(errors.map((e) => [e.path, e]))
const zh = (e: LoadError): string => translateMessage(e, e.reason, 'zh')

describe('load reasons by code', () => {
  let errors: Map<string, LoadError>
  beforeAll(async () => {
    const dir = makeBrokenLibrary()
    dirs.push(dir)
    errors = byPath((await (await openLibrary(dir)).list()).errors)
  })

  it('gives each malformed file its code and params, with the same English words as before', () => {
    const expected: [string, string, string][] = [
      // a syntax error says where the parser stopped, as a line of the file (the second `title:`)
      ['skill_2.md', 'parse.yaml_at', 'invalid YAML: a duplicate key (each key may appear once) (at line 4, column 1)'],
      ['skill_3.md', 'parse.no_front_matter', 'no front matter: the file must start with a line "---"'],
      ['skill_4.md', 'parse.not_utf8', 'not valid UTF-8: the file is left untouched and will not be rewritten'],
      ['skill_5.md', 'parse.anchor', 'YAML anchors (&name) are not allowed in skill front matter'],
      ['skill_6.md', 'parse.invalid_skill_id', 'invalid skill_id "12ab" (1–20 digits expected)'],
      // the parser stops at the closing `---` (line 4) with the quote still open: said where the quote opened
      ['skill_7.md', 'parse.yaml', 'invalid YAML: a quote opened at line 3, column 8 is never closed'],
      ['skill_9.md', 'load.symlink', 'symbolic link: skipped (links are never followed)'],
      ['skill_10.md', 'load.folder_like_skill', 'a folder named like a skill file: not read as a skill']
    ]
    for (const [file, code, words] of expected) {
      const e = errors.get(file)
      expect(e, file).toBeDefined()
      expect(e!.messageCode, file).toBe(code)
      expect(e!.reason, file).toBe(words)
      expect(englishText(e as MessageRef), file).toBe(words)
    }
    expect((errors.get('skill_2.md')!.params!.problem as MessageRef).messageCode).toBe('yaml.duplicate_key')
    expect(errors.get('skill_6.md')!.params).toEqual({ value: '"12ab"' })
    // the duplicate id names the other file, by code too
    const dup = errors.get('skill_8.md')!
    expect(dup).toMatchObject({ kind: 'duplicate_id', messageCode: 'load.duplicate_id', params: { id: '1', paths: 'skill_1.md' } })
    expect(errors.get('skill_1.md')).toMatchObject({ kind: 'duplicate_id', params: { id: '1', paths: 'skill_8.md' } })
    expect(errors.get('skill_9.md')!.kind).toBe('skipped')
  })

  it('says them in Chinese by code, nested reasons included', () => {
    expect(zh(errors.get('skill_2.md')!)).toBe('YAML 无效：有重复的键（每个键只能出现一次）（第 4 行第 1 列）')
    expect(zh(errors.get('skill_3.md')!)).toBe('没有头信息：文件必须以一行 "---" 开头')
    expect(zh(errors.get('skill_5.md')!)).toBe('技能头信息中不允许使用 YAML 锚点（&name）')
    expect(zh(errors.get('skill_6.md')!)).toBe('skill_id "12ab" 无效（应为 1–20 位数字）')
    expect(zh(errors.get('skill_9.md')!)).toBe('符号链接：已跳过（从不跟随链接）')
    expect(zh(errors.get('skill_8.md')!)).toBe('skill_id 1 重复：skill_1.md 也在使用；请给其中一个换一个新 ID（在此之前，按此 ID 的修改都会被拒绝）')
  })

  it('parses without reading words back: the parser’s reason is its code, for a policy refusal and a too-deep document too', () => {
    const deep = `---\nskill_id: '1'\nx: ${'['.repeat(40)}${']'.repeat(40)}\n---\n`
    const forbidden = `---\nskill_id: '1'\nm:\n  __proto__: 1\n---\n`
    for (const [text, code] of [[deep, 'parse.too_deep'], [forbidden, 'parse.forbidden_key']] as const) {
      const parsed = parseSkillText(text)
      expect(parsed.ok).toBe(false)
      if (parsed.ok) continue
      expect(parsed.messageCode).toBe(code)
      expect(englishText(parsed)).toBe(parsed.reason)
      expect(parseReasonParam(parsed)).toEqual({ messageCode: code, params: parsed.params })
    }
    // a reason with words only (an older cache's) is still read back through the table
    expect(parseReasonParam({ reason: 'no front matter: the file must start with a line "---"' })).toEqual({ messageCode: 'parse.no_front_matter', params: {} })
    expect(parseReasonParam({ reason: 'words nobody coded' })).toBe('words nobody coded')
  })
})

describe('an unclosed quote or bracket', () => {
  it('is said where it opened (a line of the file), not where the parser stopped; the editor marks the same place', async () => {
    const dir = makeUnclosedLibrary()
    dirs.push(dir)
    const listed = await (await openLibrary(dir)).list()
    const errors = byPath(listed.errors)
    for (const c of UNCLOSED_CASES) {
      const e = errors.get(c.rel)
      expect(e, c.rel).toBeDefined()
      expect(e!.reason, c.rel).toBe(`invalid YAML: ${c.words}`)
      // the place is in the words once: no "(at line …)" of where the parser stopped after them
      expect(e!.messageCode, c.rel).toBe('parse.yaml')
      expect(e!.params, c.rel).toEqual({ problem: c.problem })
      expect(englishText(e as MessageRef), c.rel).toBe(e!.reason)
      const text = fs.readFileSync(`${dir}/${c.rel}`, 'utf8')
      expect(locateSkillProblem(text), c.rel).toEqual({ line: c.problem.params.line, column: c.problem.params.column })
    }
    expect(zh(errors.get('skill_a.md')!)).toBe('YAML 无效：第 3 行第 8 列开始的引号一直没有闭合')
    expect(zh(errors.get('skill_b.md')!)).toBe('YAML 无效：第 4 行第 7 列开始的 [ 一直没有闭合')
    expect(zh(errors.get('skill_f.md')!)).toBe('YAML 无效：第 3 行第 8 列开始的引号在第 4 行之前没有闭合，而该行的缩进不足以接续它')
    // quoted values and brackets that go on over indented lines (valid YAML 1.2) load as they always did
    expect([...errors.keys()].sort()).toEqual(UNCLOSED_CASES.map((c) => c.rel).sort())
    for (const ok of MULTILINE_OK) {
      const parsed = parseSkillText(ok.text)
      expect(parsed.ok && parsed.file.data, ok.rel).toMatchObject(ok.data)
      expect(listed.skills.map((s) => s.path), ok.rel).toContain(ok.rel)
    }
  })
})

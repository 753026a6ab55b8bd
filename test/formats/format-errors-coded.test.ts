/**
 * The formats' errors carry a code (FormatError: messageCode + params beside the English message): malformed files
 * on disk read through `validate` and the tree loader come back by code, in the same words, and in Chinese.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { englishText, type MessageRef } from '../../src/shared/error-codes'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { FormatError } from '../../src/main/formats/model'
import { loadSkillTree } from '../../src/main/formats/tree'
import { validatePath } from '../../src/main/formats/validate'
import { tempDir } from '../store/helpers'
import { thrownAs } from '../helpers/thrown'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

function library(files: Record<string, string>): string {
  const dir = tempDir('sb-fmt-')
  dirs.push(dir)
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
    fs.writeFileSync(path.join(dir, rel), text)
  }
  return dir
}

const thrown = (run: () => Promise<unknown>): Promise<FormatError> => thrownAs(FormatError, run)

describe('FormatError by code', () => {
  it('a learned YAML with an alias, a list, a SKILL.md without front matter: coded load errors, same words, Chinese', async () => {
    const dir = library({
      'alias.yaml': 'id: a\nname: &n x\ntrigger_pattern: *n\n',
      'list.yaml': '- just\n- a list\n',
      'bad/SKILL.md': 'no front matter here\n',
      'good/SKILL.md': '---\nname: good\ndescription: fine\n---\n\nbody\n'
    })
    const { errors } = await loadSkillTree(dir)
    const byPath = new Map(errors.map((e) => [e.path, e]))
    const alias = byPath.get('alias.yaml')!
    expect(alias).toMatchObject({ reason: 'YAML skill is not valid YAML: YAML anchors (&name) are not allowed', messageCode: 'format.yaml_invalid' })
    expect(englishText(alias as MessageRef)).toBe(alias.reason)
    expect(translateMessage(alias, alias.reason, 'zh')).toBe('YAML 技能不是有效的 YAML：不允许使用 YAML 锚点（&name）')
    const list = byPath.get('list.yaml')!
    expect(list).toMatchObject({ reason: 'learned skill: the YAML is not a mapping of keys to values', messageCode: 'format.not_mapping' })
    expect(translateMessage(list, list.reason, 'zh')).toBe('学习到的技能：YAML 不是一组“键: 值”')
    const bad = byPath.get('bad/SKILL.md')!
    expect(bad).toMatchObject({ reason: 'SKILL.md: no front matter: the file must start with a line "---"', messageCode: 'format.front_matter' })
    expect(translateMessage(bad, bad.reason, 'zh')).toBe('SKILL.md：没有头信息：文件必须以一行 "---" 开头')
    expect(byPath.has('good/SKILL.md')).toBe(false)

    // `validate` gives the same code for the one file, and names a missing target by code
    const report = await validatePath(path.join(dir, 'alias.yaml'))
    expect(report.files[0]!.problems[0]).toMatchObject({ level: 'error', messageCode: 'format.yaml_invalid', message: alias.reason })
    const missing = await thrown(() => validatePath(path.join(dir, 'nothing.yaml')))
    expect(missing.messageCode).toBe('format.no_such_target')
    expect(missing.message).toBe(`no such file or folder: ${path.join(dir, 'nothing.yaml')}`)
  })
})

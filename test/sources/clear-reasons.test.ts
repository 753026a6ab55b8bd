/**
 * Reasons a person can act on, where the hostile run found raw ones: a repository's SKILL.md that is a link to
 * /etc/passwd says it links out of the repository (not "could not be read"); YAML nested 20,000 levels deep says it
 * is nested too deeply (not "Maximum call stack size exceeded"), in a library listing and in the format reader.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseYamlSafe } from '../../src/main/formats/safe-yaml'
import { translateMessage, translateText } from '../../src/renderer/i18n/messages-errors'
import { installFromSource } from '../../src/main/sources/install'
import { openLibrary } from '../../src/main/store/library'
import { makeRepo, skillMd, type TestRepo } from './git-repo'

let tmp: string
let repo: TestRepo

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-reasons-')))
  repo = makeRepo()
  repo.commit({ 'evil/SKILL.md': { link: '/etc/passwd' }, 'pdf/SKILL.md': skillMd('pdf', 'Work with PDF files. Use when reading PDFs.', 'Body.\n') })
})

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true })
  repo.cleanup()
})

const deepFlow = 'name: deep\ndescription: x\nextra: ' + '['.repeat(20000) + ']'.repeat(20000) + '\n'
const deepBlock = 'name: deep\ndescription: x\nextra: ' + '{a:'.repeat(12000) + '1' + '}'.repeat(12000) + '\n'

describe('clear reasons', () => {
  it('a SKILL.md linking to /etc/passwd is refused as a link out of the repository', async () => {
    const lib = fs.mkdtempSync(path.join(tmp, 'lib-'))
    const report = await installFromSource({ library: lib, source: repo.url, cwd: tmp, env: { ...repo.env, SKILLBENCH_CACHE_DIR: path.join(tmp, 'cache') } })
    expect(report.installed.map((s) => s.name)).toEqual(['pdf'])
    expect(report.skipped).toEqual([
      {
        name: 'evil',
        reason: 'evil: symbolic link evil/SKILL.md points outside the repository (→ /etc/passwd): refused',
        // the reason by code too, so the app words it in Chinese without reading the English
        messageCode: 'install.skipped_in',
        params: { where: 'evil', reason: { messageCode: 'install.link_outside', params: { link: 'evil/SKILL.md', target: '/etc/passwd' } } }
      }
    ])
    expect(translateMessage(report.skipped[0], report.skipped[0]!.reason, 'zh')).toBe('evil：符号链接 evil/SKILL.md 指向仓库之外（→ /etc/passwd）：已拒绝')
  })

  it('YAML nested 12,000–20,000 deep is "nested too deeply", in a listing and in the format reader', async () => {
    const root = fs.mkdtempSync(path.join(tmp, 'lib-'))
    for (const [name, fm] of [['seqs', deepFlow], ['maps', deepBlock]] as const) {
      fs.mkdirSync(path.join(root, name))
      fs.writeFileSync(path.join(root, name, 'SKILL.md'), `---\n${fm}---\n\nBody.\n`)
    }
    const list = await (await openLibrary(root)).list()
    expect(list.skills).toEqual([])
    for (const e of list.errors) {
      expect(e.reason).toMatch(/nested too deeply/)
      expect(e.reason).not.toMatch(/call stack/)
    }
    expect(list.errors).toHaveLength(2)
    for (const text of [deepFlow, deepBlock]) expect(() => parseYamlSafe(text, 'the file')).toThrow(/^the file is not valid YAML: nested too deeply/)
    // and on the Chinese screens, whole
    expect(translateText(list.errors[0]!.reason, 'zh')).toMatch(/^YAML 无效：嵌套层数太深，无法读取(（第 \d+ 行第 \d+ 列）)?$/)
  })
})

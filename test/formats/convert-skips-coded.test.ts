/**
 * Why `import` / `export` (convertTree) passes a skill over is told by code beside its unchanged words
 * (`report.skipped[]`: reason + messageCode + params): a name taken in the target, a reserved folder name, a link
 * in the source, a converted file that would be its own source, a write the store refuses (with the store's code)
 * and one the file system refuses (its words as they are). Real folders; the CLI's `--json` carries the same.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { englishText } from '../../src/shared/error-codes'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { convertTree, type SkippedFile } from '../../src/main/formats/convert'
import { runCli, snapshot, tempDir } from './helpers'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

const EXISTS_WORDS = 'a file with this name already exists (use --overwrite to replace it)'

function skillMd(name: string): string {
  return `---\nname: ${name}\ndescription: ${name} things. Use when ${name}.\n---\n\nBody of ${name}.\n`
}

function write(root: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true })
  fs.writeFileSync(path.join(root, rel), text)
}

/**
 * A source with five skills and a link, and a target where `taken` exists, `plain` is a file (its folder cannot be
 * made) and `away` is a link to a folder outside the target (the store refuses to write through it).
 */
function sourceAndTarget(): { src: string; target: string; outside: string } {
  const base = tempDir('convert-skips')
  dirs.push(base)
  const src = path.join(base, 'src')
  const target = path.join(base, 'target')
  const outside = path.join(base, 'outside')
  for (const name of ['taken', 'fresh', 'plain', 'away']) write(src, `${name}/SKILL.md`, skillMd(name))
  write(src, 'old/SKILL.md', skillMd('legacy'))
  fs.mkdirSync(path.join(src, 'linked'))
  fs.symlinkSync(path.join(src, 'fresh', 'SKILL.md'), path.join(src, 'linked', 'SKILL.md'))
  write(target, 'taken/SKILL.md', skillMd('taken') + 'the copy in the target\n')
  write(target, 'plain', 'a file where a folder would go\n')
  fs.mkdirSync(outside)
  fs.symlinkSync(outside, path.join(target, 'away'))
  return { src, target, outside }
}

const byFrom = (skipped: SkippedFile[]): Map<string, SkippedFile> => new Map(skipped.map((s) => [s.from, s]))

describe('convert tells each skipped skill by code', () => {
  it('taken, reserved, linked, refused by the store and by the file system: same words, a code beside, Chinese', async () => {
    const { src, target, outside } = sourceAndTarget()
    const before = snapshot(src)
    const report = await convertTree(src, target, 'skill-md')
    expect(report.written.map((w) => w.to)).toEqual(['fresh/SKILL.md'])
    expect(report.errors).toEqual([])
    const skipped = byFrom(report.skipped)
    expect([...skipped.keys()].sort()).toEqual(['away/SKILL.md', 'linked/SKILL.md', 'old/SKILL.md', 'plain/SKILL.md', 'taken/SKILL.md'])

    expect(skipped.get('taken/SKILL.md')).toEqual({ from: 'taken/SKILL.md', to: 'taken/SKILL.md', reason: EXISTS_WORDS, messageCode: 'convert.exists', params: {} })
    expect(skipped.get('linked/SKILL.md')).toEqual({ from: 'linked/SKILL.md', to: '', reason: 'symbolic link: not followed (links are never read)', messageCode: 'load.link_not_followed', params: {} })

    const reserved = skipped.get('old/SKILL.md')!
    expect(reserved.reason).toBe('the name "legacy" is reserved: a library keeps its retired skills in a folder of that name; rename the skill: not imported')
    expect(reserved).toMatchObject({ to: 'legacy/SKILL.md', messageCode: 'convert.not_imported' })
    expect(reserved.params).toMatchObject({ reason: { messageCode: 'skill.reserved_name', params: { name: 'legacy', what: { messageCode: 'skill.reserved_legacy', params: {} } } } })
    expect(englishText(reserved)).toBe(reserved.reason)
    expect(translateMessage(reserved, reserved.reason, 'zh')).toBe('名称“legacy”是保留的：技能库把已退役的技能放在同名文件夹中；请重命名该技能：未导入')

    // the store refuses to write through the link to a folder outside the target: its own code and words
    const away = skipped.get('away/SKILL.md')!
    expect(away).toEqual({
      from: 'away/SKILL.md',
      to: 'away/SKILL.md',
      reason: `a symbolic link leads outside ${report.target}: away/SKILL.md`,
      messageCode: 'convert.link_outside',
      params: { root: report.target, path: 'away/SKILL.md' }
    })
    expect(fs.readdirSync(outside)).toEqual([])
    // the file system refuses the folder (a file holds its name): its words, as they were, under convert.failed
    const plain = skipped.get('plain/SKILL.md')!
    expect(plain.reason).toMatch(/^EEXIST: file already exists, mkdir '.*plain'$/)
    expect(plain).toMatchObject({ messageCode: 'convert.failed', params: { reason: plain.reason } })
    expect(translateMessage(plain, plain.reason, 'zh')).toBe(plain.reason)

    const taken = skipped.get('taken/SKILL.md')!
    expect(translateMessage(taken, taken.reason, 'zh')).toBe('已有同名文件（加 --overwrite 可替换）')
    // nothing in the target was replaced, nothing in the source changed
    expect(fs.readFileSync(path.join(target, 'taken', 'SKILL.md'), 'utf8')).toMatch(/the copy in the target\n$/)
    expect(fs.readFileSync(path.join(target, 'plain'), 'utf8')).toBe('a file where a folder would go\n')
    expect(snapshot(src)).toEqual(before)
  })

  it('a converted file that would be its own source', async () => {
    const lib = tempDir('convert-same')
    dirs.push(lib)
    write(lib, 'self/SKILL.md', skillMd('self'))
    const before = snapshot(lib)
    const report = await convertTree(lib, lib, 'skill-md', { overwrite: true })
    expect(report.written).toEqual([])
    expect(report.skipped).toEqual([{ from: 'self/SKILL.md', to: 'self/SKILL.md', reason: 'source and target are the same file', messageCode: 'convert.same_file', params: {} }])
    expect(translateMessage(report.skipped[0], report.skipped[0]!.reason, 'zh')).toBe('源文件和目标文件是同一个文件')
    // the catalogue aside (.skillbench/index.json is derived), the skill is as it was
    expect(snapshot(lib)['self/SKILL.md']).toBe(before['self/SKILL.md'])
  })

  it('import --json prints the same codes beside the same words', async () => {
    const { src, target } = sourceAndTarget()
    const r = await runCli(['import', '--from', src, '--library', target, '--json'])
    const report = JSON.parse(r.stdout) as { skipped: SkippedFile[] }
    const skipped = byFrom(report.skipped)
    expect(skipped.get('taken/SKILL.md')).toEqual({ from: 'taken/SKILL.md', to: 'taken/SKILL.md', reason: EXISTS_WORDS, messageCode: 'convert.exists', params: {} })
    expect(skipped.get('old/SKILL.md')).toMatchObject({ messageCode: 'convert.not_imported', reason: expect.stringMatching(/: not imported$/) })
    expect(skipped.get('linked/SKILL.md')).toMatchObject({ messageCode: 'load.link_not_followed' })
    expect(skipped.get('away/SKILL.md')).toMatchObject({ messageCode: 'convert.link_outside' })
    expect(skipped.get('plain/SKILL.md')).toMatchObject({ messageCode: 'convert.failed' })
  })
})

/**
 * What the skill tree walk (`walkSkillTree`, under `index.json` and the format importer) passes over is told by
 * code beside its unchanged words: links on disk come back as `load.link_not_followed`, through the walk itself and
 * the tree loader, in Chinese by the renderer's table, and reading changes nothing.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { CodedText } from '../../src/shared/error-codes'
import { messageRefOf } from '../../src/shared/message-match'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { walkSkillTree } from '../../src/main/store/walk'
import { loadSkillTree } from '../../src/main/formats/tree'
import { hashTree, tempDir } from './helpers'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

const LINK_WORDS = 'symbolic link: not followed (links are never read)'

function skillMd(name: string): string {
  return `---\nname: ${name}\ndescription: ${name} things. Use when ${name}.\n---\n\nBody.\n`
}

/** A tree with one real skill folder, a linked SKILL.md, a linked folder and a linked script inside a skill. */
function treeWithLinks(): string {
  const dir = tempDir('sb-walk-')
  dirs.push(dir)
  fs.mkdirSync(path.join(dir, 'pdf-tool', 'scripts'), { recursive: true })
  fs.writeFileSync(path.join(dir, 'pdf-tool', 'SKILL.md'), skillMd('pdf-tool'))
  fs.writeFileSync(path.join(dir, 'pdf-tool', 'scripts', 'run.sh'), 'echo hi\n')
  fs.mkdirSync(path.join(dir, 'linked'))
  fs.symlinkSync(path.join(dir, 'pdf-tool', 'SKILL.md'), path.join(dir, 'linked', 'SKILL.md'))
  fs.symlinkSync('/usr/bin', path.join(dir, 'system'))
  return dir
}

describe('walkSkillTree tells what it passes over by code', () => {
  it('links: the same words as before, load.link_not_followed beside them, and Chinese by code', async () => {
    const dir = treeWithLinks()
    const before = hashTree(dir)
    const skipped: { rel: string; why: CodedText }[] = []
    const files: string[] = []
    await walkSkillTree(dir, (f) => files.push(f.rel), (rel, why) => skipped.push({ rel, why }))
    expect(files).toEqual(['pdf-tool/SKILL.md'])
    expect(skipped).toEqual([
      { rel: 'linked/SKILL.md', why: { text: LINK_WORDS, messageCode: 'load.link_not_followed', params: {} } },
      { rel: 'system', why: { text: LINK_WORDS, messageCode: 'load.link_not_followed', params: {} } }
    ])

    // the tree loader (import, export, use) keeps the words as `reason` and adds the code
    const { skills, errors, skipped: loaderSkipped } = await loadSkillTree(dir)
    expect(skills.map((s) => s.path)).toEqual(['pdf-tool/SKILL.md'])
    expect(errors).toEqual([])
    expect(loaderSkipped).toEqual([
      { path: 'linked/SKILL.md', reason: LINK_WORDS, messageCode: 'load.link_not_followed', params: {} },
      { path: 'system', reason: LINK_WORDS, messageCode: 'load.link_not_followed', params: {} }
    ])
    const first = loaderSkipped[0]!
    expect(translateMessage(first, first.reason, 'zh')).toBe('符号链接：未跟随（从不读取链接）')
    expect(translateMessage(first, first.reason, 'en')).toBe(LINK_WORDS)
    // the words an older build sent read back to the same code (and not the listing's own link reason)
    expect(messageRefOf(LINK_WORDS)).toEqual({ messageCode: 'load.link_not_followed', params: {} })
    expect(hashTree(dir)).toEqual(before)
  })
})

/**
 * A skill file the file system will not give (a real chmod 000 file: EACCES) is an `errors[]` entry of the format
 * loaders with the error's words as they were and a code beside them (`format.cannot_read`), which the app words in
 * Chinese. As root (which reads anything) the load runs with the effective uid of nobody (withoutRoot).
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { englishText } from '../../src/shared/error-codes'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { loadImportSource, loadSkillTree } from '../../src/main/formats/tree'
import { validatePath } from '../../src/main/formats/validate'
import { tempDir, withoutRoot } from './helpers'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

function skillMd(name: string): string {
  return `---\nname: ${name}\ndescription: ${name} things. Use when ${name}.\n---\n\nBody of ${name}.\n`
}

/** A tree with a readable skill and one whose SKILL.md nobody may read (folders 0755 so nobody can walk them). */
function treeWithLockedSkill(): { root: string; locked: string } {
  const root = tempDir('read-failures')
  dirs.push(root)
  fs.chmodSync(root, 0o755)
  for (const name of ['open', 'locked']) {
    fs.mkdirSync(path.join(root, name), { mode: 0o755 })
    fs.writeFileSync(path.join(root, name, 'SKILL.md'), skillMd(name))
  }
  const locked = path.join(root, 'locked', 'SKILL.md')
  fs.chmodSync(locked, 0o000)
  return { root, locked }
}

describe('a skill file the file system refuses', () => {
  it('is reported with its words as before and format.cannot_read beside them, in Chinese in the app', async () => {
    const { root, locked } = treeWithLockedSkill()
    const { skills, errors } = await withoutRoot(() => loadSkillTree(root))
    expect(skills.map((s) => s.path)).toEqual(['open/SKILL.md'])
    const words = `EACCES: permission denied, open '${locked}'`
    expect(errors).toEqual([{ path: 'locked/SKILL.md', reason: words, messageCode: 'format.cannot_read', params: { detail: words } }])
    const e = errors[0]!
    expect(englishText({ messageCode: e.messageCode!, params: e.params! })).toBe(e.reason)
    expect(translateMessage(e, '', 'zh')).toBe(`无法读取：${words}`)
    // the file is as it was: nothing here writes
    expect(fs.statSync(locked).mode & 0o777).toBe(0)
  })

  it('is the same error when the file is imported on its own', async () => {
    const { locked } = treeWithLockedSkill()
    const single = await withoutRoot(() => loadImportSource(locked))
    const words = `EACCES: permission denied, open '${locked}'`
    expect(single).toEqual({ skills: [], errors: [{ path: 'SKILL.md', reason: words, messageCode: 'format.cannot_read', params: { detail: words } }] })
    // the skill's folder: its SKILL.md at the top
    const folder = await withoutRoot(() => loadImportSource(path.dirname(locked)))
    expect(folder.errors).toEqual([{ path: 'SKILL.md', reason: words, messageCode: 'format.cannot_read', params: { detail: words } }])
  })

  it('is a validate finding by the same code, for the tree and for the file alone', async () => {
    const { root, locked } = treeWithLockedSkill()
    const words = `EACCES: permission denied, open '${locked}'`
    const finding = { level: 'error', message: words, messageCode: 'format.cannot_read', params: { detail: words } }
    const tree = await withoutRoot(() => validatePath(root))
    expect(tree.files.find((f) => f.path === 'locked/SKILL.md')).toMatchObject({ ok: false, problems: [finding] })
    expect(tree.files.find((f) => f.path === 'open/SKILL.md')?.ok).toBe(true)
    const single = await withoutRoot(() => validatePath(locked))
    expect(single.files).toMatchObject([{ path: 'SKILL.md', ok: false, problems: [finding] }])
  })
})

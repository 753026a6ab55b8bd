/**
 * The one fallback of a format load error: whatever loading throws that carries no code of its own is told as
 * `format.cannot_read` with its words. What reaches it for real is the file system: here a SKILL.md removed after the
 * walk found it and before it was read (the walk is wrapped to remove it at that point), through the tree loader,
 * `validate` and `gen-commands`. (There is no second code: the parsers, validators and the size-limited read throw
 * FormatErrors by code, so an uncoded error is a file system's or Node's.)
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { englishText } from '../../src/shared/error-codes'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { generateCommands } from '../../src/main/formats/commands-gen'
import { formatLoadError, loadSkillTree } from '../../src/main/formats/tree'
import { validatePath } from '../../src/main/formats/validate'
import { tempDir } from './helpers'
import type * as Walk from '../../src/main/store/walk'

/** Files removed once the walk has listed them (the race of a file deleted between the walk and the read). */
const vanish = vi.hoisted(() => ({ files: [] as string[] }))

vi.mock('../../src/main/store/walk', async (importOriginal) => {
  const real = await importOriginal<typeof Walk>()
  return {
    ...real,
    walkSkillTree: async (...args: Parameters<typeof real.walkSkillTree>) => {
      await real.walkSkillTree(...args)
      for (const f of vanish.files.splice(0)) fs.rmSync(f)
    }
  }
})

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

function skillMd(name: string): string {
  return `---\nname: ${name}\ndescription: ${name} things. Use when ${name}.\n---\n\nBody of ${name}.\n`
}

/** A library with `kept/` and `gone/`; `gone/SKILL.md` is removed right after the next walk lists it. */
function libraryWithVanishing(): { root: string; gone: string } {
  const root = tempDir('load-fallback')
  dirs.push(root)
  for (const name of ['kept', 'gone']) {
    fs.mkdirSync(path.join(root, name))
    fs.writeFileSync(path.join(root, name, 'SKILL.md'), skillMd(name))
  }
  const gone = path.join(root, 'gone', 'SKILL.md')
  vanish.files = [gone]
  return { root, gone }
}

describe('a skill file that fails to load without a code of its own', () => {
  it('gone between the walk and the read: format.cannot_read with the words as they were, in Chinese in the app', async () => {
    const { root, gone } = libraryWithVanishing()
    const { skills, errors } = await loadSkillTree(root)
    expect(fs.existsSync(gone)).toBe(false) // the wrapper ran: the walk had listed it
    expect(skills.map((s) => s.path)).toEqual(['kept/SKILL.md'])
    const words = `ENOENT: no such file or directory, open '${gone}'`
    expect(errors).toEqual([{ path: 'gone/SKILL.md', reason: words, messageCode: 'format.cannot_read', params: { detail: words } }])
    expect(englishText(errors[0]!)).toBe(words)
    expect(translateMessage(errors[0]!, words, 'zh')).toBe(`无法读取：${words}`)
  })

  it('the same through validate and gen-commands (its skipped entry, no command made)', async () => {
    const a = libraryWithVanishing()
    const report = await validatePath(a.root)
    const words = (gone: string): string => `ENOENT: no such file or directory, open '${gone}'`
    expect(report.files.find((f) => f.path === 'gone/SKILL.md')).toEqual({
      path: 'gone/SKILL.md',
      format: 'skill-md',
      ok: false,
      problems: [{ level: 'error', message: words(a.gone), messageCode: 'format.cannot_read', params: { detail: words(a.gone) } }]
    })
    const b = libraryWithVanishing()
    fs.mkdirSync(path.join(b.root, 'gone', 'scripts'))
    fs.writeFileSync(path.join(b.root, 'gone', 'scripts', 'run.sh'), '#!/bin/sh\necho gone\n')
    const bin = path.join(b.root, '..', 'bin-' + path.basename(b.root))
    dirs.push(bin)
    const gen = await generateCommands(b.root, bin)
    expect(gen.skipped).toEqual([{ path: 'gone/SKILL.md', reason: words(b.gone), messageCode: 'format.cannot_read', params: { detail: words(b.gone) } }])
    expect(gen.written).toEqual([])
  })

  it('anything else thrown uncoded is the same code (there is no second fallback), its words kept', () => {
    const e = formatLoadError('x/SKILL.md', new TypeError('boom'))
    expect(e).toEqual({ path: 'x/SKILL.md', reason: 'boom', messageCode: 'format.cannot_read', params: { detail: 'boom' } })
  })
})

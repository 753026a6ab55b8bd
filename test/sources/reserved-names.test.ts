/**
 * Skills named `legacy`, `codes` or `logs` would land in the folders a library keeps for its bookkeeping (retired
 * skills, backed-up code, logs). Every path that creates a skill refuses them with the reason: install (and the
 * repository folders of those names are named, not passed over), import, the store's create (the editor and
 * reflection go through it); a SKILL.md placed straight in one of those folders is reported by `list`, and restore
 * never moves the whole of legacy/.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { convertTree } from '../../src/main/formats/convert'
import { installFromSource } from '../../src/main/sources/install'
import { openLibrary } from '../../src/main/store/library'
import { reservedNameProblem } from '../../src/main/store/paths'
import { makeRepo, skillMd, type TestRepo } from './git-repo'

let tmp: string
let repo: TestRepo
let env: NodeJS.ProcessEnv

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-reserved-')))
  repo = makeRepo()
  env = { ...repo.env, SKILLBENCH_CACHE_DIR: path.join(tmp, 'cache') }
  repo.commit({
    'legacy/SKILL.md': skillMd('legacy', 'Old things. Use when asked about old things.', 'Body.\n'),
    'codes/SKILL.md': skillMd('codes', 'Code things. Use when asked about codes.', 'Body.\n'),
    'skills/logs/SKILL.md': skillMd('logs', 'Log things. Use when reading logs.', 'Body.\n'),
    'logs/helper/SKILL.md': skillMd('helper', 'Helps. Use when help is needed.', 'Body.\n'),
    'skills/pdf/SKILL.md': skillMd('pdf', 'Work with PDF files. Use when reading PDFs.', 'Body.\n')
  })
})

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true })
  repo.cleanup()
})

describe('reserved skill names', () => {
  it('the rule itself: the three bookkeeping names, in any case; others pass', () => {
    expect(reservedNameProblem('legacy')?.text).toMatch(/reserved: a library keeps its retired skills/)
    expect(reservedNameProblem('legacy')).toMatchObject({ messageCode: 'skill.reserved_name', params: { name: 'legacy', what: { messageCode: 'skill.reserved_legacy' } } })
    expect(reservedNameProblem('Codes')?.text).toMatch(/files backed up from tasks/)
    expect(reservedNameProblem('logs')?.text).toMatch(/reflection and curation logs/)
    expect(reservedNameProblem('legacy-notes')).toBeNull()
    expect(reservedNameProblem('pdf')).toBeNull()
  })

  it('install refuses them with the reason and names the repository folders of those names; the library stays clean', async () => {
    const lib = fs.mkdtempSync(path.join(tmp, 'lib-'))
    const report = await installFromSource({ library: lib, source: repo.url, cwd: tmp, env })
    expect(report.installed.map((s) => s.name)).toEqual(['pdf'])
    const reasons = Object.fromEntries(report.skipped.map((s) => [s.name, s.reason]))
    expect(reasons.legacy).toMatch(/the name "legacy" is reserved/)
    expect(reasons.codes).toMatch(/the name "codes" is reserved/)
    expect(reasons.logs).toMatch(/the name "logs" is reserved/)
    expect(reasons.helper).toMatch(/lies in a folder named "logs", which a library keeps for its own bookkeeping: not installed \(take it with --path logs\/helper\)/)
    expect(fs.readdirSync(lib).filter((n) => !n.startsWith('.') && n !== 'skills.lock').sort()).toEqual(['pdf'])
    // --path takes the one under logs/ when asked for
    const taken = await installFromSource({ library: lib, source: repo.url, path: 'logs/helper', cwd: tmp, env })
    expect(taken.installed.map((s) => s.name)).toEqual(['helper'])
  })

  it('import refuses them, and lists a SKILL.md behind a symbolic link instead of passing over it', async () => {
    const src = path.join(tmp, 'import-src')
    for (const [dir, name] of [['old', 'legacy'], ['ok', 'csv-tool']] as const) {
      fs.mkdirSync(path.join(src, dir), { recursive: true })
      fs.writeFileSync(path.join(src, dir, 'SKILL.md'), skillMd(name, `${name} things. Use when ${name}.`, 'Body.\n'))
    }
    fs.mkdirSync(path.join(src, 'linked'))
    fs.symlinkSync(path.join(src, 'ok', 'SKILL.md'), path.join(src, 'linked', 'SKILL.md'))
    const lib = fs.mkdtempSync(path.join(tmp, 'lib-'))
    const report = await convertTree(src, lib, 'skill-md')
    expect(report.written.map((w) => w.to)).toEqual(['csv-tool/SKILL.md'])
    expect(report.skipped).toEqual(
      expect.arrayContaining([
        { from: 'old/SKILL.md', to: 'legacy/SKILL.md', reason: expect.stringMatching(/the name "legacy" is reserved.*: not imported$/), messageCode: 'convert.not_imported', params: expect.anything() },
        { from: 'linked/SKILL.md', to: '', reason: 'symbolic link: not followed (links are never read)', messageCode: 'load.link_not_followed', params: {} }
      ])
    )
    expect(fs.existsSync(path.join(lib, 'legacy'))).toBe(false)
  })

  it('the store refuses to create one (the editor and reflection create through it)', async () => {
    const lib = await openLibrary(fs.mkdtempSync(path.join(tmp, 'lib-')))
    await expect(lib.create({ format: 'skill-md', name: 'codes', title: 'codes', description: 'x', body: 'x' })).rejects.toThrow(/the name "codes" is reserved/)
    const ok = await lib.create({ format: 'skill-md', name: 'codes-review', title: 'codes-review', description: 'x', body: 'x' })
    expect(ok.path).toBe('codes-review/SKILL.md')
  })

  it('a SKILL.md straight in legacy/, codes/ or logs/ is reported by the listing, and restore never moves legacy/ itself', async () => {
    const root = fs.mkdtempSync(path.join(tmp, 'lib-'))
    for (const dir of ['legacy', 'codes', 'logs']) {
      fs.mkdirSync(path.join(root, dir), { recursive: true })
      fs.writeFileSync(path.join(root, dir, 'SKILL.md'), skillMd(dir, 'x. Use when x.', 'Body.\n'))
    }
    fs.mkdirSync(path.join(root, 'legacy', 'old-one'))
    fs.writeFileSync(path.join(root, 'legacy', 'old-one', 'SKILL.md'), skillMd('old-one', 'Retired. Use when old.', 'Body.\n'))
    const lib = await openLibrary(root)
    const list = await lib.list({ includeLegacy: true })
    expect(list.skills.map((s) => s.path)).toEqual(['legacy/old-one/SKILL.md'])
    const reported = list.errors.filter((e) => /bookkeeping/.test(e.reason)).map((e) => e.path).sort()
    expect(reported).toEqual(['codes/SKILL.md', 'legacy/SKILL.md', 'logs/SKILL.md'])
    const restored = await lib.restore(list.skills[0]!.skill_id)
    expect(restored.path).toBe('old-one/SKILL.md')
    expect(fs.existsSync(path.join(root, 'legacy', 'SKILL.md'))).toBe(true)
  })
})

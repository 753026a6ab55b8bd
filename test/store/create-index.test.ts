/**
 * create() without rescanning the library (id index kept by our writes, verified on disk), the lazily computed
 * content hash, group-committed folder fsyncs, and the index.json catalogue kept in sync.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { syncSkillIndex } from '../../src/main/formats/skill-index'
import { fsyncDir } from '../../src/main/store/atomic'
import { hashBytes, openLibrary, type SkillLibrary } from '../../src/main/store/library'
import { StoreError } from '../../src/main/store/types'
import { copyTree, FIXTURE_LIBRARY, listFiles, tempDir } from './helpers'

const FIXED = new Date(2026, 1, 3, 4, 5, 6, 789)
const now = (): Date => FIXED

let dir: string
let lib: SkillLibrary

beforeEach(async () => {
  dir = copyTree(FIXTURE_LIBRARY)
  lib = await openLibrary(dir, { now })
})

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p
  } catch (err) {
    expect(err).toBeInstanceOf(StoreError)
    return (err as StoreError).code
  }
  return 'ok'
}

describe('create without rescanning', () => {
  it('concurrent creates with the same id: exactly one wins, the others get "exists"', async () => {
    const codes = await Promise.all(Array.from({ length: 6 }, (_, i) => codeOf(lib.create({ title: `Same id ${i}`, body: 'b', skill_id: '1999000001' }))))
    expect(codes.filter((c) => c === 'ok')).toHaveLength(1)
    expect(codes.filter((c) => c === 'exists')).toHaveLength(5)
    const { skills } = await (await openLibrary(dir)).list({ includeLegacy: true })
    expect(skills.filter((s) => s.skill_id === '1999000001')).toHaveLength(1)
  })

  it('concurrent creates with the same title and no id: distinct ids and file names, nothing clobbered', async () => {
    const made = await Promise.all(Array.from({ length: 10 }, () => lib.create({ title: 'Parallel title', body: 'b' })))
    expect(new Set(made.map((s) => s.skill_id)).size).toBe(10)
    expect(new Set(made.map((s) => s.path)).size).toBe(10)
    const fresh = await (await openLibrary(dir)).list()
    for (const s of made) expect(fresh.skills.find((x) => x.path === s.path)?.skill_id).toBe(s.skill_id)
  })

  it('a file another process wrote under the chosen name is never overwritten: the skill takes the _<id> name', async () => {
    fs.writeFileSync(path.join(dir, 'skill_Taken name.md'), 'not ours\n')
    const s = await lib.create({ title: 'Taken name', body: 'b', skill_id: '1999000002' })
    expect(s.path).toBe('skill_Taken name_1999000002.md')
    expect(fs.readFileSync(path.join(dir, 'skill_Taken name.md'), 'utf8')).toBe('not ours\n')
  })

  it('an id whose file was removed behind the store is free again; one still on disk stays taken', async () => {
    const s = await lib.get('1768616001')
    fs.renameSync(path.join(dir, s.path), path.join(dir, 'moved-away.txt'))
    const again = await lib.create({ title: 'Reuses the id', body: 'b', skill_id: '1768616001' })
    expect(again.skill_id).toBe('1768616001')
    // The SKILL.md id is known only from the last listing; it is checked at its path before being refused.
    const md = (await lib.list()).skills.find((x) => x.format === 'skill-md')!
    expect(await codeOf(lib.create({ title: 't', body: 'b', skill_id: md.skill_id }))).toBe('exists')
  })

  it('the created skill is the one on disk and joins the snapshot in path order without a rescan', async () => {
    const before = await lib.snapshot({ maxAgeMs: 60_000 })
    const s = await lib.create({ title: 'Alpha 测试', body: '正文\n', skill_id: '1999000003', task_directories: ['output_1'] })
    const after = await lib.snapshot({ maxAgeMs: 60_000 })
    expect(after.skills).toHaveLength(before.skills.length + 1)
    expect(after.skills.map((x) => x.path)).toEqual([...after.skills.map((x) => x.path)].sort())
    expect(after.skills.find((x) => x.skill_id === '1999000003')).toBe(s)
    // untouched skills are the same objects: nothing was re-read
    expect(after.skills.find((x) => x.skill_id === '1768616001')).toBe(before.skills.find((x) => x.skill_id === '1768616001'))
    const fromDisk = (await (await openLibrary(dir)).list()).skills.find((x) => x.skill_id === '1999000003')!
    expect({ ...fromDisk }).toEqual({ ...s })
  })
})

describe('content hash', () => {
  it('equals the sha256 of the file bytes (BOM, CRLF, Chinese), is enumerable and survives JSON', async () => {
    fs.writeFileSync(path.join(dir, 'skill_crlf.md'), "\ufeff---\r\nskill_id: '1999000004'\r\ntitle: 中文 CRLF\r\n---\r\n\r\n正文 é\r\n")
    const { skills } = await lib.list({ includeLegacy: true })
    expect(skills.length).toBeGreaterThan(5)
    for (const s of skills) {
      expect(s.hash).toBe(hashBytes(fs.readFileSync(path.join(dir, s.path))))
      expect(Object.keys(s)).toContain('hash')
      expect(JSON.parse(JSON.stringify(s)).hash).toBe(s.hash)
      expect(Object.isFrozen(s)).toBe(true)
    }
  })

  it('is the hash of the bytes that were read: a later change on disk is a conflict', async () => {
    const s = await lib.get('1768616001')
    fs.appendFileSync(path.join(dir, s.path), 'edited elsewhere\n')
    expect(await codeOf(lib.update(s.skill_id, { body: 'x' }, { baseHash: s.hash }))).toBe('conflict')
  })
})

describe('directory fsync group commit', () => {
  it('every concurrent caller is answered, and many writes into one folder all land', async () => {
    const d = tempDir('sb-fsync-')
    await Promise.all(Array.from({ length: 50 }, () => fsyncDir(d)))
    const store = await openLibrary(d)
    const made = await Promise.all(Array.from({ length: 40 }, (_, i) => store.create({ title: `Skill ${i}`, body: `body ${i}\n` })))
    expect(listFiles(d).filter((f) => f.startsWith('skill_'))).toHaveLength(40)
    expect(new Set(made.map((s) => s.skill_id)).size).toBe(40)
    fs.rmSync(d, { recursive: true, force: true })
  })
})

describe('index.json catalogue', () => {
  const indexed = (): string[] => (JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8')) as { skills: { path: string }[] }).skills.map((s) => s.path)

  it('follows SKILL.md creates, moves to legacy and restores when the library has one', async () => {
    expect((await syncSkillIndex(dir)).status).toBe('written')
    const start = indexed()
    expect(start).toContain('tools/.system/pdf-reader')
    const made = await lib.create({ title: 'x', format: 'skill-md', name: 'indexed-skill', description: 'Use when indexing.', body: '# I\n' })
    expect(indexed()).toContain('indexed-skill')
    await lib.moveToLegacy(made.skill_id)
    expect(indexed()).not.toContain('indexed-skill')
    await lib.restore(made.skill_id)
    expect(indexed()).toContain('indexed-skill')
    await lib.update(made.skill_id, { meta: { usage_conditions: 'Use when the description changed.' } })
    const entry = (JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8')) as { skills: { path: string; description: string }[] }).skills.find((s) => s.path === 'indexed-skill')
    expect(entry?.description).toBe('Use when the description changed.')
    expect(lib.indexJsonProblem).toBeUndefined()
    // AGIAgent skills are not in the catalogue and do not touch it
    const before = fs.readFileSync(path.join(dir, 'index.json'), 'utf8')
    await lib.create({ title: 'Plain skill', body: 'b' })
    expect(fs.readFileSync(path.join(dir, 'index.json'), 'utf8')).toBe(before)
  })

  it('is never created unasked, and a foreign index.json is left as it is (reported)', async () => {
    await lib.create({ title: 'x', format: 'skill-md', name: 'no-index', body: '# N\n' })
    expect(fs.existsSync(path.join(dir, 'index.json'))).toBe(false)
    fs.writeFileSync(path.join(dir, 'index.json'), '{"mine": true}\n')
    await lib.create({ title: 'x', format: 'skill-md', name: 'foreign-index', body: '# F\n' })
    expect(fs.readFileSync(path.join(dir, 'index.json'), 'utf8')).toBe('{"mine": true}\n')
    expect(lib.indexJsonProblem).toMatch(/not written by skillbench/)
  })
})

import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openLibrary, type SkillLibrary } from '../../src/main/store/library'
import { StoreError } from '../../src/main/store/types'
import { copyTree, FIXTURE_LIBRARY, hashTree, listFiles, tempDir } from './helpers'

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

async function expectStoreError(p: Promise<unknown>, code: string): Promise<StoreError> {
  try {
    await p
  } catch (err) {
    expect(err).toBeInstanceOf(StoreError)
    expect((err as StoreError).code).toBe(code)
    return err as StoreError
  }
  throw new Error(`expected StoreError(${code})`)
}

describe('opening and listing', () => {
  it('tells an observer of the opening listing its root and file count, then each skill as it is read, in the listing order', async () => {
    const seen: { root?: string; files?: number; paths: string[] } = { paths: [] }
    const observed = await openLibrary(dir, {
      now,
      onListing: (root, files) => {
        seen.root = root
        seen.files = files
        return (skill) => seen.paths.push(skill.path)
      }
    })
    const all = await observed.list({ includeLegacy: true })
    expect(seen.root).toBe(fs.realpathSync(dir))
    expect(seen.files).toBeGreaterThanOrEqual(all.skills.length)
    expect(seen.paths).toEqual(all.skills.map((s) => s.path))
    expect(all.skills.some((s) => s.legacy)).toBe(true)
    // A lazy open does not list, so nobody is told.
    let told = false
    await openLibrary(dir, { now, lazy: true, onListing: () => void (told = true) })
    expect(told).toBe(false)
  })

  it('loads both layouts, dot-folders included, skipping node_modules, codes, logs and legacy', async () => {
    const { skills } = await lib.list()
    expect(skills.map((s) => s.path).sort()).toEqual([
      '.curated/csv-tools/SKILL.md',
      'skill_Python计算器开发.md',
      'skill_Sort a CSV file by a column.md',
      'skill_任务完成情况.md',
      'skill_深度反思分析：笑话生成任务.md',
      'tools/.system/pdf-reader/SKILL.md',
      'tools/writing/git-commit-helper/SKILL.md'
    ])
    const byPath = new Map(skills.map((s) => [s.path, s]))
    const calc = byPath.get('skill_Python计算器开发.md')!
    expect(calc).toMatchObject({
      skill_id: '1768616001',
      format: 'agiagent',
      title: 'Python计算器开发：实现加减乘除、除零保护和单元测试',
      quality_index: 0.5,
      fetch_count: 0,
      task_directories: ['output_calculator_project'],
      last_used_at: null,
      legacy: false
    })
    expect(calc.body.startsWith('Python计算器开发')).toBe(true)
    expect(calc.hash).toMatch(/^[0-9a-f]{64}$/)
    expect(byPath.get('skill_深度反思分析：笑话生成任务.md')).toMatchObject({ title: '## 深度反思分析：笑话生成任务', pinned: true, fetch_count: 3 })
    const git = byPath.get('tools/writing/git-commit-helper/SKILL.md')!
    expect(git).toMatchObject({ skill_id: '5550001112223334', format: 'skill-md', title: 'git-commit-helper', name: 'git-commit-helper', quality_index: 0.8, fetch_count: 7 })
    expect(git.usage_conditions).toMatch(/^Write clear git commit messages/)
    const pdf = byPath.get('tools/.system/pdf-reader/SKILL.md')!
    expect(pdf.skill_id).toMatch(/^[0-9]{16}$/)
    expect(pdf.quality_index).toBe(0.5)
  })

  it('reports each malformed file with a reason and loads the rest', async () => {
    const { errors } = await lib.list()
    const reasons = Object.fromEntries(errors.map((e) => [e.path, e.reason]))
    expect(Object.keys(reasons).sort()).toEqual([
      'skill_broken_yaml.md',
      'skill_js_engine.md',
      'skill_missing_id.md',
      'skill_no_front_matter.md',
      'skill_unclosed.md'
    ])
    expect(reasons['skill_js_engine.md']).toMatch(/only YAML/)
    expect(reasons['skill_missing_id.md']).toMatch(/missing skill_id/)
    expect(reasons['skill_unclosed.md']).toMatch(/not closed/)
    expect((globalThis as { __poc?: unknown }).__poc).toBeUndefined()
  })

  it('legacy skills are listed only on request', async () => {
    const all = await lib.list({ includeLegacy: true })
    const legacy = all.skills.filter((s) => s.legacy)
    expect(legacy.map((s) => s.path)).toEqual(['legacy/skill_旧的计算器技能.md'])
    await expectStoreError(lib.get('1768610000'), 'not_found')
    expect((await lib.get('1768610000', { includeLegacy: true })).title).toBe('旧的计算器技能（已合并）')
  })

  it('reading never changes a file', async () => {
    const before = hashTree(dir)
    await lib.list({ includeLegacy: true })
    await lib.get('1768616001')
    await lib.readRaw('skill_broken_yaml.md')
    await openLibrary(dir)
    expect(hashTree(dir)).toEqual(before)
  })

  it('SKILL.md ids without a stored id are stable across opens', async () => {
    const a = (await lib.list()).skills.find((s) => s.name === 'csv-tools')!.skill_id
    const again = await openLibrary(dir)
    expect((await again.list()).skills.find((s) => s.name === 'csv-tools')!.skill_id).toBe(a)
  })

  it('refuses a missing folder or a file as the library', async () => {
    await expectStoreError(openLibrary(path.join(dir, 'nope')), 'not_found')
    await expectStoreError(openLibrary(path.join(dir, 'skill_任务完成情况.md')), 'invalid_input')
  })

  it('non-UTF-8 files are reported and never rewritten', async () => {
    const bad = path.join(dir, 'skill_bad_bytes.md')
    const bytes = Buffer.concat([Buffer.from("---\nskill_id: '1768616050'\ntitle: "), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('\n---\nbody\n')])
    fs.writeFileSync(bad, bytes)
    const { errors } = await lib.list()
    expect(errors.find((e) => e.path === 'skill_bad_bytes.md')?.reason).toMatch(/UTF-8/)
    await expectStoreError(lib.readRaw('skill_bad_bytes.md'), 'not_utf8')
    await expectStoreError(lib.writeRaw('skill_bad_bytes.md', 'replaced'), 'not_utf8')
    await expectStoreError(lib.update('1768616050', { meta: { fetch_count: 1 } }), 'not_found')
    expect(fs.readFileSync(bad).equals(bytes)).toBe(true)
  })

  it('symlinked skill files are reported, not followed', async () => {
    const outside = tempDir('sb-outside-')
    fs.writeFileSync(path.join(outside, 'secret.md'), "---\nskill_id: '1768616060'\ntitle: secret\n---\nSECRET\n")
    fs.symlinkSync(path.join(outside, 'secret.md'), path.join(dir, 'skill_link.md'))
    fs.symlinkSync(outside, path.join(dir, 'linked-folder'))
    const { skills, errors } = await lib.list()
    expect(skills.some((s) => s.body.includes('SECRET'))).toBe(false)
    expect(errors.find((e) => e.path === 'skill_link.md')?.reason).toMatch(/symbolic link/)
    const before = hashTree(outside)
    await expectStoreError(lib.writeRaw('skill_link.md', 'overwrite'), 'path_escape')
    await expectStoreError(lib.writeRaw('linked-folder/secret.md', 'overwrite'), 'path_escape')
    await expectStoreError(lib.writeRaw('linked-folder/new.md', 'x', null), 'path_escape')
    expect(hashTree(outside)).toEqual(before)
    fs.rmSync(outside, { recursive: true, force: true })
  })
})

describe('writes', () => {
  it('update changes only the named fields and updated_at, in place and in order', async () => {
    const before = fs.readFileSync(path.join(dir, 'skill_Python计算器开发.md'), 'utf8')
    const s = await lib.update('1768616001', { meta: { quality_index: 0.65 } })
    expect(s.quality_index).toBe(0.65)
    expect(s.updated_at).toBe('2026-02-03T04:05:06.789000')
    const after = fs.readFileSync(path.join(dir, 'skill_Python计算器开发.md'), 'utf8')
    expect(after).toBe(
      before.replace('quality_index: 0.5', 'quality_index: 0.65').replace("updated_at: '2026-01-17T10:28:34.000002'", "updated_at: '2026-02-03T04:05:06.789000'")
    )
  })

  it('SKILL.md bookkeeping goes under metadata.skillbench, never new top-level keys', async () => {
    const pdf = (await lib.list()).skills.find((s) => s.name === 'pdf-reader')!
    await lib.update(pdf.skill_id, { meta: { fetch_count: 1, last_used_at: '2026-02-03T04:05:06.789000' } }, { touchUpdatedAt: false })
    const text = fs.readFileSync(path.join(dir, 'tools/.system/pdf-reader/SKILL.md'), 'utf8')
    expect(text).toBe(
      [
        '---',
        'name: pdf-reader',
        'description: Extract text and tables from PDF files with pdfplumber. Use when the user gives a PDF and wants its text, tables or page count.',
        'metadata:',
        '  short-description: Read PDFs',
        '  skillbench:',
        `    skill_id: '${pdf.skill_id}'`,
        '    fetch_count: 1',
        "    last_used_at: '2026-02-03T04:05:06.789000'",
        '---',
        '',
        '# PDF reader',
        '',
        'Open the file with `pdfplumber.open(path)` and iterate `pdf.pages`.',
        'See references/tables.md for tables.',
        ''
      ].join('\n')
    )
    // A title change renames `name`, usage conditions go to `description`.
    const renamed = await lib.update(pdf.skill_id, { meta: { usage_conditions: 'Read PDFs.' } })
    expect(renamed.description).toBe('Read PDFs.')
    expect(renamed.skill_id).toBe(pdf.skill_id)
  })

  it('refuses to overwrite a file changed on disk since it was read (content hash)', async () => {
    const s = await lib.get('1768616004')
    const file = path.join(dir, s.path)
    // Same size, different content: only the hash catches it.
    const text = fs.readFileSync(file, 'utf8')
    fs.writeFileSync(file, text.replace('price', 'PRICE'))
    await expectStoreError(lib.update(s.skill_id, { body: 'new' }, { baseHash: s.hash }), 'conflict')
    expect(fs.readFileSync(file, 'utf8')).toBe(text.replace('price', 'PRICE'))
    const raw = await lib.readRaw(s.path)
    await expectStoreError(lib.writeRaw(s.path, 'x', s.hash), 'conflict')
    await lib.writeRaw(s.path, raw.text + '\nmore\n', raw.hash)
    await expectStoreError(lib.writeRaw(s.path, 'x', null), 'exists')
    fs.rmSync(file)
    await expectStoreError(lib.writeRaw(s.path, 'x', raw.hash), 'conflict')
  })

  it('create: upstream name and layout, _<id> on collision, unique ids', async () => {
    const a = await lib.create({ title: '1. 任务完成情况', body: '正文\n', skill_id: '1768700000' })
    expect(a.path).toBe('skill_任务完成情况_1768700000.md')
    expect(fs.readFileSync(path.join(dir, a.path), 'utf8')).toBe(
      "---\nskill_id: '1768700000'\ntitle: 1. 任务完成情况\nusage_conditions: ''\nquality_index: 0.5\nfetch_count: 0\nrelated_code: ''\n" +
        "task_directories: []\ncreated_at: '2026-02-03T04:05:06.789000'\nupdated_at: '2026-02-03T04:05:06.789000'\nlast_used_at: null\n" +
        "user_preferences: ''\n---\n\n正文\n"
    )
    const b = await lib.create({ title: 'New skill', body: 'text' })
    expect(b.skill_id).toBe(String(Math.floor(FIXED.getTime() / 1000)))
    const c = await lib.create({ title: 'New skill', body: 'text' })
    expect(Number(c.skill_id)).toBe(Number(b.skill_id) + 1)
    expect(c.path).toBe(`skill_New skill_${c.skill_id}.md`)
    await expectStoreError(lib.create({ title: 'dup', body: '', skill_id: '1768616001' }), 'exists')
    await expectStoreError(lib.create({ title: 'x', body: '', skill_id: '../1' }), 'invalid_id')
    const md = await lib.create({ title: 'ignored', format: 'skill-md', name: 'new-skill', description: 'Use when testing.', body: '# New\n' })
    expect(md.path).toBe('new-skill/SKILL.md')
    expect(fs.readFileSync(path.join(dir, md.path), 'utf8')).toMatch(/^---\nname: new-skill\ndescription: Use when testing.\nmetadata:\n {2}skillbench:\n {4}skill_id: '/)
    await expectStoreError(lib.create({ title: 't', format: 'skill-md', name: '../evil', body: '' }), 'invalid_input')
    await expectStoreError(lib.create({ title: 't', format: 'skill-md', name: 'new-skill', body: '' }), 'exists')
  })

  it('moveToLegacy never deletes: suffix on collision; restore brings it back', async () => {
    const original = fs.readFileSync(path.join(dir, 'skill_任务完成情况.md'), 'utf8')
    fs.writeFileSync(path.join(dir, 'legacy', 'skill_任务完成情况.md'), original.replace("'1768616003'", "'1768616033'"))
    const moved = await lib.moveToLegacy('1768616003')
    expect(moved.from).toBe('skill_任务完成情况.md')
    expect(moved.to).toBe(`legacy/skill_任务完成情况_${Math.floor(FIXED.getTime() / 1000)}.md`)
    expect(fs.existsSync(path.join(dir, 'legacy', 'skill_任务完成情况.md'))).toBe(true)
    await expectStoreError(lib.get('1768616003'), 'not_found')
    const restored = await lib.restore('1768616003')
    expect(restored.legacy).toBe(false)
    expect(restored.path).toBe(`skill_任务完成情况_${Math.floor(FIXED.getTime() / 1000)}.md`)

    const pdf = (await lib.list()).skills.find((s) => s.name === 'pdf-reader')!
    const m2 = await lib.moveToLegacy(pdf.skill_id)
    // a SKILL.md folder retires under .skillbench/ (the library folder stays what agents load)
    expect(m2.to).toBe('.skillbench/legacy/tools/.system/pdf-reader/SKILL.md')
    expect(fs.existsSync(path.join(dir, '.skillbench/legacy/tools/.system/pdf-reader/references/tables.md'))).toBe(true)
    expect((await lib.list()).skills.some((s) => s.name === 'pdf-reader')).toBe(false)
    const back = await lib.restore(pdf.skill_id)
    expect(back.path).toBe('tools/.system/pdf-reader/SKILL.md')
    expect(back.skill_id).toBe(pdf.skill_id)
  })

  it('temp files left by a dead writer are ignored by readers and swept at open', async () => {
    const orphan = path.join(dir, '.skillbench-tmp-999999999-abcdef.tmp')
    const nested = path.join(dir, 'tools/.system/pdf-reader/.skillbench-tmp-999999998-0123ab.tmp')
    fs.writeFileSync(orphan, "---\nskill_id: '1768616070'\ntitle: half\n---\n")
    fs.writeFileSync(nested, 'half')
    const listed = await lib.list()
    expect(listed.skills.some((s) => s.skill_id === '1768616070')).toBe(false)
    const reopened = await openLibrary(dir)
    expect(reopened.sweptTempFiles).toBe(2)
    expect(listFiles(dir).filter((f) => f.includes('.skillbench-tmp-'))).toEqual([])
  })

  it('concurrent updates of one skill through one store are serialised (no lost update)', async () => {
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        for (;;) {
          const s = await lib.get('1768616001')
          try {
            await lib.update(s.skill_id, { meta: { fetch_count: s.fetch_count + 1 } }, { baseHash: s.hash })
            return
          } catch (err) {
            if ((err as StoreError).code !== 'conflict') throw err
          }
        }
      })
    )
    expect((await lib.get('1768616001')).fetch_count).toBe(20)
  })

  it('validates patches and raw paths', async () => {
    await expectStoreError(lib.update('1768616001', { meta: { quality_index: 2 } }), 'invalid_input')
    await expectStoreError(lib.update('1768616001', { meta: { fetch_count: -1 } }), 'invalid_input')
    await expectStoreError(lib.update('abc', {}), 'invalid_id')
    await expectStoreError(lib.readRaw('../outside.md'), 'path_escape')
    await expectStoreError(lib.writeRaw('/etc/x', 'x'), 'path_escape')
    await expectStoreError(lib.writeRaw('.skillbench-tmp-1-aa.tmp', 'x'), 'invalid_input')
    expect((await lib.writeRaw('codes/task_x/a.py', 'print(1)\n', null)).hash).toMatch(/^[0-9a-f]{64}$/)
    expect(fs.readFileSync(path.join(dir, 'codes/task_x/a.py'), 'utf8')).toBe('print(1)\n')
  })

  it('snapshot is reused until a write, and stays valid after an in-place update', async () => {
    const a = await lib.snapshot({ maxAgeMs: 60_000 })
    const b = await lib.snapshot({ maxAgeMs: 60_000 })
    expect(b.skills[0]).toBe(a.skills[0])
    const updated = await lib.update('1768616001', { meta: { fetch_count: 9 } })
    const c = await lib.snapshot({ maxAgeMs: 60_000 })
    expect(c.skills.find((s) => s.skill_id === '1768616001')).toBe(updated)
    await lib.moveToLegacy('1768616001')
    const d = await lib.snapshot({ maxAgeMs: 60_000 })
    expect(d.skills.some((s) => s.skill_id === '1768616001')).toBe(false)
  })
})

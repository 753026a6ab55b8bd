import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openLibrary, type SkillLibrary } from '../../src/main/store/library'
import { SKILL_TOOL_SCHEMAS } from '../../src/main/tools/schemas'
import {
  callSkillTool,
  createDisabledSkillTools,
  createSkillTools,
  DISABLED_MESSAGE,
  SKILL_TOOL_NAMES,
  type SkillTools
} from '../../src/main/tools/skill-tools'
import { copyTree, FIXTURE_LIBRARY, hashTree, tempDir } from '../store/helpers'

const FIXED = new Date(2026, 2, 4, 5, 6, 7, 8)
const STAMP = '2026-03-04T05:06:07.008000'

let dir: string
let lib: SkillLibrary
let tools: SkillTools

beforeEach(async () => {
  dir = copyTree(FIXTURE_LIBRARY)
  lib = await openLibrary(dir, { now: () => FIXED })
  tools = createSkillTools(lib, { now: () => FIXED })
})

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

function fileOf(rel: string): string {
  return fs.readFileSync(path.join(dir, rel), 'utf8')
}

describe('query_skill', () => {
  it('returns the top 3 by TF-IDF over title + usage conditions + body, Chinese and English', async () => {
    const zh = await tools.query_skill('帮我写一个Python计算器，要有除零保护', { touch: false })
    expect(zh.status).toBe('success')
    expect(zh.skills[0]!.skill_id).toBe('1768616001')
    const en = await tools.query_skill('sort rows of a CSV spreadsheet by price', { touch: false })
    expect(en.skills[0]!.skill_id).toBe('1768616004')
    expect(en.skills_count).toBe(en.skills.length)
    expect(en.skills.length).toBeLessThanOrEqual(3)
    const s = en.skills[0]!
    expect(Object.keys(s).sort()).toEqual(
      [
        'skill_id', 'title', 'usage_conditions', 'quality_index', 'fetch_count', 'similarity_score', 'content', 'related_code',
        'task_directories', 'user_preferences', 'created_at', 'updated_at', 'last_used_at', 'path', 'format'
      ].sort()
    )
    expect(s.content).toContain('df.sort_values')
    expect(s.similarity_score).toBeGreaterThan(0)
    expect(en.message.split('\n').slice(0, 8)).toEqual([
      `Found ${en.skills_count} relevant skills:`,
      '',
      'Skill 1:',
      'ID: 1768616004',
      'Title: Sort a CSV file by a column with pandas',
      `Similarity: ${s.similarity_score.toFixed(3)}`,
      'Usage Conditions: Use when the user asks to sort, filter or reorder rows of a CSV spreadsheet file: quick pandas recipe.',
      'Quality Index: 0.7'
    ])
    const pdf = await tools.query_skill('extract tables from a PDF', { touch: false, top: 1 })
    expect(pdf.skills.map((x) => x.title)).toEqual(['pdf-reader'])
  })

  it('touch counts fetch_count + 1 and last_used_at for each returned skill, in the file by the time the query answers', async () => {
    const before = fileOf('skill_Sort a CSV file by a column.md')
    const r = await tools.query_skill('sort rows of a CSV spreadsheet by price', { top: 1 })
    expect(r.skills[0]).toMatchObject({ skill_id: '1768616004', fetch_count: 6, last_used_at: STAMP })
    // Already in the file (AGIAgent's own cleanup reads the files), exactly these two fields changed.
    expect(fileOf('skill_Sort a CSV file by a column.md')).toBe(
      before.replace('fetch_count: 5', 'fetch_count: 6').replace('last_used_at: null', `last_used_at: '${STAMP}'`)
    )
    // SKILL.md: bookkeeping under metadata.skillbench.
    await tools.query_skill('git commit message summary line', { top: 1 })
    expect(fileOf('tools/writing/git-commit-helper/SKILL.md')).toContain(`    fetch_count: 8\n    last_used_at: '${STAMP}'\n`)
    expect(await lib.foldUsage()).toEqual({ skills: 0, uses: 0 }) // nothing left in the ledger
    // Folded uses are not counted twice.
    expect((await lib.get('1768616004')).fetch_count).toBe(6)
    expect((await (await openLibrary(dir)).get('1768616004')).fetch_count).toBe(6)
    // No touch: no change at all.
    const snapshot = hashTree(dir)
    await tools.query_skill('sort rows of a CSV spreadsheet', { touch: false })
    expect(hashTree(dir)).toEqual(snapshot)
  })

  it("foldUses 'soon' (an MCP server): every reader counts the use at once, the file gets it in one fold shortly after", async () => {
    const before = fileOf('skill_Sort a CSV file by a column.md')
    const soon = createSkillTools(lib, { now: () => FIXED, foldUses: 'soon' })
    await soon.query_skill('sort rows of a CSV spreadsheet by price', { top: 1 })
    await soon.query_skill('sort rows of a CSV spreadsheet by price', { top: 1 })
    // Recorded in the ledger: this process and another count it now; the file waits for the fold.
    expect((await lib.get('1768616004')).fetch_count).toBe(7)
    expect((await (await openLibrary(dir)).get('1768616004')).fetch_count).toBe(7)
    expect(fileOf('skill_Sort a CSV file by a column.md')).toBe(before)
    await lib.settleUsage() // what the scheduled fold does (and what a server does on its way out)
    expect(fileOf('skill_Sort a CSV file by a column.md')).toBe(
      before.replace('fetch_count: 5', 'fetch_count: 7').replace('last_used_at: null', `last_used_at: '${STAMP}'`)
    )
    expect((await lib.get('1768616004')).fetch_count).toBe(7)
    await lib.settleUsage() // nothing scheduled any more: a no-op
    expect((await lib.get('1768616004')).fetch_count).toBe(7)
  })

  it('never returns legacy skills', async () => {
    const r = await tools.query_skill('旧的计算器技能 已合并', { touch: false, top: 10 })
    expect(r.skills.some((s) => s.skill_id === '1768610000')).toBe(false)
  })

  it('returns only skills that score above 0: no match is "no relevant skill", and counts no use', async () => {
    const snapshot = hashTree(dir)
    const r = await tools.query_skill('zzqxv')
    expect(r).toEqual({ status: 'success', message: 'Found 0 relevant skills: no skill in the library matches the query', skills_count: 0, skills: [], message_code: 'tool.found_no_match', params: {} })
    expect(hashTree(dir)).toEqual(snapshot)
  })

  it('sees a skill changed on disk once the listing is refreshed, and reuses the index otherwise', async () => {
    const fresh = createSkillTools(lib, { snapshotMaxAgeMs: 0 })
    // Before the change no skill says 量子纠缠 (at most a common character such as 实 matches, weakly).
    const before = await fresh.query_skill('量子纠缠实验', { touch: false })
    expect(before.skills[0]!.similarity_score).toBeLessThan(0.15)
    const file = path.join(dir, 'skill_任务完成情况.md')
    fs.writeFileSync(file, fileOf('skill_任务完成情况.md').replace('网页爬虫任务被用户中断', '量子纠缠实验记录'))
    const r = await fresh.query_skill('量子纠缠实验', { touch: false })
    expect(r.skills[0]!.skill_id).toBe('1768616003')
    expect(r.skills[0]!.similarity_score).toBeGreaterThan(2 * before.skills[0]!.similarity_score)
  })

  it('refuses an empty query; an empty library answers with 0 skills', async () => {
    expect((await tools.query_skill('  ')).status).toBe('error')
    const empty = tempDir('sb-empty-')
    const r = await createSkillTools(await openLibrary(empty)).query_skill('anything')
    expect(r).toMatchObject({ status: 'success', skills_count: 0, skills: [] })
    expect(r.message.startsWith('Found 0 relevant skills:')).toBe(true)
  })
})

describe('rate_skill', () => {
  it('quality = round(0.7 × old + 0.3 × rating, 3)', async () => {
    const r = await tools.rate_skill('1768616002', 1)
    expect(r).toMatchObject({ status: 'success', old_quality_index: 0.62, new_quality_index: 0.734 })
    expect(fileOf('skill_深度反思分析：笑话生成任务.md')).toContain('quality_index: 0.734\n')
    const r2 = await tools.rate_skill('1768616002', '0')
    expect(r2.new_quality_index).toBe(0.514)
  })

  it.each([[1.5], [-0.1], [Number.NaN], ['abc'], [null]])('rating %j: clear error, nothing written', async (rating) => {
    const before = hashTree(dir)
    const r = await tools.rate_skill('1768616002', rating as number)
    expect(r.status).toBe('error')
    expect(r.message).toMatch(/between 0 and 1/)
    expect(hashTree(dir)).toEqual(before)
  })

  it('bad or unknown ids are errors', async () => {
    expect((await tools.rate_skill('../1', 1)).message).toMatch(/invalid skill_id/)
    expect((await tools.rate_skill('1234', 1)).message).toMatch(/no active skill/)
  })
})

describe('edit_skill', () => {
  it('full_replace, append and lines_replace change the body only (and updated_at)', async () => {
    const before = fileOf('skill_任务完成情况.md')
    const head = before.slice(0, before.indexOf('\n---\n') + 5)
    expect((await tools.edit_skill('1768616003', 'full_replace', 'new body\n')).status).toBe('success')
    const expectedHead = head.replace("updated_at: '2026-01-18T08:00:00.000000'", `updated_at: '${STAMP}'`)
    expect(fileOf('skill_任务完成情况.md')).toBe(`${expectedHead}\nnew body\n`)
    await tools.edit_skill('1768616003', 'append', '- appended line')
    expect(fileOf('skill_任务完成情况.md')).toBe(`${expectedHead}\nnew body\n- appended line`)
    await tools.edit_skill('1768616003', 'lines_replace', 'changed', 'new')
    expect(fileOf('skill_任务完成情况.md')).toBe(`${expectedHead}\nchanged body\n- appended line`)
  })

  it('lines_replace needs old_code exactly once; nothing is written otherwise', async () => {
    await tools.edit_skill('1768616001', 'append', 'dup dup')
    const before = hashTree(dir)
    expect((await tools.edit_skill('1768616001', 'lines_replace', 'x', 'not in the body')).message).toMatch(/not found/)
    expect((await tools.edit_skill('1768616001', 'lines_replace', 'x', 'dup')).message).toMatch(/occurs 2 times/)
    expect((await tools.edit_skill('1768616001', 'lines_replace', 'x')).message).toMatch(/needs old_code/)
    expect((await tools.edit_skill('1768616001', 'rewrite', 'x')).message).toMatch(/edit_mode must be one of/)
    expect(hashTree(dir)).toEqual(before)
  })

  it('special replacement patterns in code_edit are inserted literally', async () => {
    await tools.edit_skill('1768616001', 'lines_replace', "cost $& and $1 and $$", 'ValueError')
    expect(fileOf('skill_Python计算器开发.md')).toContain("cost $& and $1 and $$(\"除数不能为零\")")
  })
})

describe('delete_skill', () => {
  it('moves the file to legacy/ and the skill is no longer returned', async () => {
    const r = await tools.delete_skill('1768616004')
    expect(r).toMatchObject({ status: 'success', from: 'skill_Sort a CSV file by a column.md', to: 'legacy/skill_Sort a CSV file by a column.md' })
    expect(fs.existsSync(path.join(dir, 'legacy/skill_Sort a CSV file by a column.md'))).toBe(true)
    const q = await tools.query_skill('sort rows of a CSV spreadsheet by price', { touch: false, top: 10 })
    expect(q.skills.some((s) => s.skill_id === '1768616004')).toBe(false)
    expect((await tools.delete_skill('1768616004')).status).toBe('error')
  })
})

describe('copy_skill_files', () => {
  let ws: string
  let outside: string

  beforeEach(() => {
    const base = tempDir('sb-ws-')
    ws = path.join(base, 'output_calculator_project', 'workspace')
    outside = path.join(base, 'secret')
    fs.mkdirSync(path.join(ws, 'src', 'sub'), { recursive: true })
    fs.mkdirSync(outside)
    fs.writeFileSync(path.join(outside, 'id_rsa.py'), 'SECRET KEY')
    fs.writeFileSync(path.join(ws, 'calculator.py'), 'def add(a, b):\n    return a + b\n')
    fs.writeFileSync(path.join(ws, 'src', 'sub', 'README.md'), '# 说明\n')
    fs.writeFileSync(path.join(ws, 'config.json'), '{}')
    fs.writeFileSync(path.join(ws, 'settings.yaml'), 'a: 1')
    fs.writeFileSync(path.join(ws, 'plot.png'), Buffer.from([0x89, 0x50]))
    fs.writeFileSync(path.join(ws, 'big.txt'), 'x'.repeat(3000))
    fs.symlinkSync(path.join(outside, 'id_rsa.py'), path.join(ws, 'link_abs.py'))
    fs.symlinkSync('../../secret/id_rsa.py', path.join(ws, 'link_rel.py'))
    fs.symlinkSync(outside, path.join(ws, 'linkdir'))
    fs.linkSync(path.join(outside, 'id_rsa.py'), path.join(ws, 'hard.py'))
  })

  it('copies code and docs into codes/task_<…>/ and records them in related_code; skips everything unsafe with a reason', async () => {
    const r = await tools.copy_skill_files(
      '1768616001',
      [
        'calculator.py', './src/sub/README.md', 'config.json', 'settings.yaml', 'plot.png', 'link_abs.py', 'link_rel.py', 'linkdir/id_rsa.py',
        'hard.py', '../secret/id_rsa.py', path.join(outside, 'id_rsa.py'), 'missing.py', 'src'
      ],
      ws
    )
    expect(r.status).toBe('success')
    expect(r.copied).toEqual(['codes/task_calculator_project/calculator.py', 'codes/task_calculator_project/src/sub/README.md'])
    const reasons = Object.fromEntries((r.skipped as Array<{ path: string; reason: string }>).map((s) => [s.path, s.reason]))
    expect(reasons['config.json']).toMatch(/only code and document/)
    expect(reasons['settings.yaml']).toMatch(/only code and document/)
    expect(reasons['plot.png']).toMatch(/only code and document/)
    expect(reasons['link_abs.py']).toMatch(/symbolic link/)
    expect(reasons['link_rel.py']).toMatch(/symbolic link/)
    expect(reasons['linkdir/id_rsa.py']).toMatch(/outside the workspace/)
    expect(reasons['hard.py']).toMatch(/hard link/)
    expect(reasons['../secret/id_rsa.py']).toMatch(/outside the workspace/)
    expect(reasons[path.join(outside, 'id_rsa.py')]).toMatch(/outside the workspace/)
    expect(reasons['missing.py']).toMatch(/not found/)
    expect(reasons['src']).toMatch(/only code and document|not a regular file/)
    expect(Object.keys(reasons)).toHaveLength(11)
    expect(r.message).toMatch(/^Copied 2 file\(s\) to codes\/task_calculator_project\/; skipped 11: /)
    expect(fileOf('codes/task_calculator_project/calculator.py')).toBe('def add(a, b):\n    return a + b\n')
    expect((await lib.get('1768616001')).related_code).toBe(
      'codes/task_calculator_project/calculator.py, codes/task_calculator_project/src/sub/README.md'
    )
    // No secret bytes and no links anywhere in the library.
    for (const [p, h] of hashTree(dir)) {
      expect(h.startsWith('link:')).toBe(false)
      expect(fs.readFileSync(p, 'utf8')).not.toContain('SECRET KEY')
    }
  })

  it('enforces size caps, never overwrites a different backup, and is idempotent for the same file', async () => {
    const capped = createSkillTools(lib, { copyLimits: { maxFileBytes: 2000 } })
    const r = await capped.copy_skill_files('1768616003', ['big.txt', 'calculator.py'], ws)
    expect((r.skipped as Array<{ reason: string }>)[0]!.reason).toMatch(/larger than/)
    expect(r.copied).toEqual(['codes/task_crawler/calculator.py'])
    const again = await capped.copy_skill_files('1768616003', ['calculator.py'], ws)
    expect(again).toMatchObject({ status: 'success', copied: [], unchanged: ['codes/task_crawler/calculator.py'] })
    fs.writeFileSync(path.join(ws, 'calculator.py'), 'changed\n')
    const changed = await capped.copy_skill_files('1768616003', ['calculator.py'], ws)
    expect(changed.status).toBe('error')
    expect((changed.skipped as Array<{ reason: string }>)[0]!.reason).toMatch(/already exists/)
    expect(fileOf('codes/task_crawler/calculator.py')).toBe('def add(a, b):\n    return a + b\n')
    // related_code keeps the existing entry and adds the new one once.
    expect((await lib.get('1768616003')).related_code).toBe('codes/task_crawler/crawler.py, codes/task_crawler/calculator.py')
  })

  it('a skill without task folders backs up into codes/task_<skill_id>/; a missing workspace is an error', async () => {
    const r = await tools.copy_skill_files('1768616004', ['calculator.py'], ws)
    expect(r.copied).toEqual(['codes/task_1768616004/calculator.py'])
    expect((await tools.copy_skill_files('1768616004', ['a.py'], path.join(ws, 'nope'))).message).toMatch(/workspace folder not found/)
    expect((await tools.copy_skill_files('1768616004', ['a.py'])).message).toMatch(/no workspace/)
  })
})

describe('schemas, dispatch and the disabled variant', () => {
  it('resources/skill-tools.json equals SKILL_TOOL_SCHEMAS and names the five tools', () => {
    const file = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../resources/skill-tools.json'), 'utf8'))
    expect(file).toEqual(JSON.parse(JSON.stringify(SKILL_TOOL_SCHEMAS)))
    expect(SKILL_TOOL_SCHEMAS.map((s) => s.function.name)).toEqual([...SKILL_TOOL_NAMES])
    for (const s of SKILL_TOOL_SCHEMAS) {
      expect(s.type).toBe('function')
      expect(s.function.parameters.additionalProperties).toBe(false)
      for (const r of s.function.parameters.required) expect(Object.keys(s.function.parameters.properties)).toContain(r)
    }
  })

  it('callSkillTool runs a function call from JSON arguments and refuses unknown tools', async () => {
    const q = await callSkillTool(tools, 'query_skill', JSON.stringify({ query: 'CSV sort' }))
    expect(q.status).toBe('success')
    expect((await callSkillTool(tools, 'rm_rf', {})).message).toMatch(/unknown tool/)
    expect((await callSkillTool(tools, 'rate_skill', '{not json')).message).toMatch(/JSON object/)
    expect((await callSkillTool(tools, 'copy_skill_files', { skill_id: '1768616001', file_paths: 'x' })).status).toBe('error')
  })

  it('disabled tools answer with the upstream message and write nothing', async () => {
    const off = createDisabledSkillTools()
    const before = hashTree(dir)
    for (const name of SKILL_TOOL_NAMES) {
      const r = await callSkillTool(off, name, { query: 'x', skill_id: '1768616001', rating: 1, edit_mode: 'append', code_edit: 'x', file_paths: [] })
      expect(r).toMatchObject({ status: 'error', message: DISABLED_MESSAGE })
    }
    expect(hashTree(dir)).toEqual(before)
  })
})

describe('error answers by code (message unchanged, message_code + params beside it)', () => {
  it('a bad id, a bad rating, an edit that cannot match, an unknown tool, disabled tools: each coded where it fails', async () => {
    const before = hashTree(dir)
    expect(await tools.rate_skill('../1', 1)).toEqual({
      status: 'error',
      message: 'invalid skill_id "../1": an id is 1–20 digits',
      message_code: 'tool.invalid_id',
      params: { id: '"../1"' }
    })
    expect(await tools.rate_skill('1768616002', 7)).toEqual({
      status: 'error',
      message: 'rating must be a number between 0 and 1 (got 7); nothing was changed',
      message_code: 'tool.rating_range',
      params: { value: '7' }
    })
    // caught from the store with its own code (and the store's kind)
    expect(await tools.delete_skill('1234')).toEqual({ status: 'error', message: 'no active skill with id 1234', skill_id: '1234', code: 'not_found', message_code: 'skill.no_active_id', params: { id: '1234' } })
    // thrown inside the store's update (EditRefused), coded where the edit is refused
    const twice = await tools.edit_skill('1768616001', 'lines_replace', 'X', '\n')
    expect(twice).toMatchObject({ status: 'error', skill_id: '1768616001', message_code: 'tool.old_code_ambiguous' })
    expect(twice.message).toBe(`old_code occurs ${(twice.params as { n: number }).n} times in the skill body; give more surrounding text so it matches exactly once`)
    expect(await tools.edit_skill('1768616001', 'lines_replace', 'X', 'no such text anywhere')).toMatchObject({
      message: 'old_code was not found in the skill body; nothing was changed',
      message_code: 'tool.old_code_not_found',
      params: {}
    })
    expect(await callSkillTool(tools, 'drop_table', {})).toEqual({ status: 'error', message: 'unknown tool "drop_table"', message_code: 'tool.unknown', params: { name: '"drop_table"' } })
    expect(await callSkillTool(tools, 'rate_skill', '[1]')).toMatchObject({ message: 'tool arguments must be a JSON object', message_code: 'tool.args_not_object' })
    expect(await tools.query_skill('  ')).toEqual({ status: 'error', message: 'query must be a non-empty string', skills_count: 0, skills: [], message_code: 'tool.query_empty', params: {} })
    const off = createDisabledSkillTools()
    expect(await off.edit_skill('1', 'append', 'x')).toEqual({ status: 'error', message: DISABLED_MESSAGE, message_code: 'tool.disabled', params: {} })
    expect(DISABLED_MESSAGE).toBe('Skill tools are only available when long-term memory is enabled')
    expect(hashTree(dir)).toEqual(before)
  })

  it("copy_skill_files: the whole message by code, each skipped file's reason nested, in Chinese by code", async () => {
    const ws = tempDir('sb-ws-coded-')
    fs.writeFileSync(path.join(ws, 'a.py'), 'print(1)\n')
    fs.writeFileSync(path.join(ws, 'conf.json'), '{}')
    fs.mkdirSync(path.join(ws, 'pkg'))
    const r = await tools.copy_skill_files('1768616004', ['conf.json', 'missing.py', 'Makefile'], ws)
    expect(r.status).toBe('error')
    expect(r.message).toBe(
      'Copied 0 file(s) to codes/task_1768616004/; skipped 3: conf.json (only code and document files are copied (.json is not one)); missing.py (not found in the workspace); Makefile (only code and document files are copied (no extension is not one))'
    )
    expect(r.skipped).toEqual([
      { path: 'conf.json', reason: 'only code and document files are copied (.json is not one)', message_code: 'copy.extension', params: { ext: '.json' } },
      { path: 'missing.py', reason: 'not found in the workspace', message_code: 'copy.not_found', params: {} },
      { path: 'Makefile', reason: 'only code and document files are copied (no extension is not one)', message_code: 'copy.extension', params: { ext: { messageCode: 'copy.no_extension', params: {} } } }
    ])
    expect(r.message_code).toBe('text.list')
    const { translateMessage } = await import('../../src/renderer/i18n/messages-errors')
    expect(translateMessage({ messageCode: r.message_code, params: r.params }, r.message, 'en')).toBe(r.message)
    expect(translateMessage({ messageCode: r.message_code, params: r.params }, r.message, 'zh')).toBe(
      '已复制 0 个文件到 codes/task_1768616004/；跳过 3 个：conf.json（只复制代码和文档文件（不是这类：.json））；missing.py（工作区中找不到）；Makefile（只复制代码和文档文件（不是这类：没有扩展名））'
    )
    const gone = await tools.copy_skill_files('1768616004', ['a.py'], path.join(ws, 'nope'))
    expect(gone).toEqual({ status: 'error', message: `workspace folder not found: ${path.join(ws, 'nope')}`, skill_id: '1768616004', message_code: 'tool.workspace_not_found', params: { path: path.join(ws, 'nope') } })
    const file = await tools.copy_skill_files('1768616004', ['a.py'], path.join(ws, 'a.py'))
    expect(file).toMatchObject({ message: `workspace folder not found: ${path.join(ws, 'a.py')}`, message_code: 'tool.workspace_not_found' })
    const ok = await tools.copy_skill_files('1768616004', ['a.py'], ws)
    expect(ok).toMatchObject({ status: 'success', message: 'Copied 1 file(s) to codes/task_1768616004/', message_code: 'tool.copied', params: { n: 1, dir: 'codes/task_1768616004/' } })
    fs.rmSync(ws, { recursive: true, force: true })
  })
})

describe('success answers by code (message unchanged, message_code + params beside it)', () => {
  it('query, rate, edit and delete on a library on disk: the exact English, its code, and the same answer in Chinese', async () => {
    const { translateMessage } = await import('../../src/renderer/i18n/messages-errors')
    const zh = (r: { message: string; message_code?: unknown; params?: unknown }): string => translateMessage({ messageCode: r.message_code, params: r.params }, r.message, 'zh')
    const en = (r: { message: string; message_code?: unknown; params?: unknown }): string => translateMessage({ messageCode: r.message_code, params: r.params }, '?', 'en')

    const q = await tools.query_skill('sort rows of a CSV spreadsheet by price', { touch: false, top: 2 })
    const [a, b] = q.skills
    const block = (i: number, s: typeof a): string[] => ['', `Skill ${i}:`, `ID: ${s!.skill_id}`, `Title: ${s!.title}`, `Similarity: ${s!.similarity_score.toFixed(3)}`, `Usage Conditions: ${s!.usage_conditions}`, `Quality Index: ${s!.quality_index}`]
    expect(q.message).toBe(['Found 2 relevant skills:', ...block(1, a), ...block(2, b)].join('\n'))
    expect(q.message_code).toBe('tool.found')
    expect(q.params).toMatchObject({ n: 2, skills: { messageCode: 'tool.found_skills', params: { first: { messageCode: 'tool.found_skill', params: { i: 1, id: '1768616004' } }, rest: { messageCode: 'tool.found_skill', params: { i: 2, id: b!.skill_id } } } } })
    expect(en(q)).toBe(q.message)
    expect(zh(q)).toBe(
      [
        '找到 2 个相关技能：',
        ...[a, b].flatMap((s, i) => ['', `技能 ${i + 1}：`, `ID：${s!.skill_id}`, `标题：${s!.title}`, `相似度：${s!.similarity_score.toFixed(3)}`, `使用条件：${s!.usage_conditions}`, `质量指数：${s!.quality_index}`])
      ].join('\n')
    )

    const none = await createSkillTools(await openLibrary(tempDir('sb-empty-coded-'))).query_skill('anything')
    expect(none).toEqual({ status: 'success', message: 'Found 0 relevant skills: the skill library is empty', skills_count: 0, skills: [], message_code: 'tool.found_none', params: {} })
    expect(zh(none)).toBe('找到 0 个相关技能：技能库是空的')

    const rated = await tools.rate_skill('1768616002', 1)
    expect(rated).toEqual({
      status: 'success',
      message: 'Skill 1768616002 rated 1: quality index 0.62 → 0.734',
      skill_id: '1768616002',
      rating: 1,
      old_quality_index: 0.62,
      new_quality_index: 0.734,
      message_code: 'tool.rated',
      params: { id: '1768616002', rating: 1, old: 0.62, new: 0.734 }
    })
    expect(zh(rated)).toBe('技能 1768616002 已评分 1：质量指数 0.62 → 0.734')

    const edited = await tools.edit_skill('1768616003', 'append', '- one more line')
    expect(edited).toEqual({
      status: 'success',
      message: 'Skill 1768616003 edited (append)',
      skill_id: '1768616003',
      edit_mode: 'append',
      path: 'skill_任务完成情况.md',
      message_code: 'tool.edited',
      params: { id: '1768616003', mode: 'append' }
    })
    expect(fileOf('skill_任务完成情况.md').endsWith('- one more line')).toBe(true)
    expect(zh(edited)).toBe('技能 1768616003 已编辑（append）')

    const deleted = await tools.delete_skill('1768616004')
    expect(deleted).toEqual({
      status: 'success',
      message: 'Skill 1768616004 moved to legacy/skill_Sort a CSV file by a column.md (kept, no longer recalled)',
      skill_id: '1768616004',
      from: 'skill_Sort a CSV file by a column.md',
      to: 'legacy/skill_Sort a CSV file by a column.md',
      message_code: 'tool.moved_to_legacy',
      params: { id: '1768616004', to: 'legacy/skill_Sort a CSV file by a column.md' }
    })
    expect(fs.existsSync(path.join(dir, 'legacy/skill_Sort a CSV file by a column.md'))).toBe(true)
    expect(zh(deleted)).toBe('技能 1768616004 已移到 legacy/skill_Sort a CSV file by a column.md（保留，不再被检索到）')
  })
})

/**
 * A second YAML document in a skill file's front matter used to be passed over in silence: a `...` or `--- …` line
 * inside it ended the mapping and every key after it was dropped from the loaded skill (a later write would have
 * lost them for good), and a second `---` … `---` block right after the first was read as the body's first lines.
 * Now either is refused where it happens, by code with its line (parse.second_document, parse.second_front_matter),
 * in English and Chinese: the store lists the file as not loaded (its bytes untouched, the other skills loaded),
 * `skillbench validate` (text, --json) says it, and the editor's position finder points at the line.
 * A Markdown rule at the body's start, a `...` that only ends the one document, and `---` inside a block scalar are
 * not a second document.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { openLibrary } from '../../src/main/store/library'
import { parseSkillText } from '../../src/main/store/skill-file'
import { locateSkillProblem } from '../../src/shared/problem-position'

const ROOT = path.resolve(__dirname, '..', '..')

const agi = (id: string, extra = ''): string => `skill_id: '${id}'\ntitle: T${id}\nusage_conditions: when needed\nquality_index: 0.5\nfetch_count: 0\nrelated_code: ''\ntask_directories: []\ncreated_at: '2026-01-01T00:00:00.000000'\nupdated_at: '2026-01-01T00:00:00.000000'\nlast_used_at: null\nuser_preferences: ''\n${extra}`

/** The files, what each says (line, marker) or null when it loads as it did. */
const FILES: { rel: string; text: string; code?: 'parse.second_document' | 'parse.second_front_matter'; line?: number; marker?: string }[] = [
  // `...` ends the document: `description` below would be dropped
  { rel: 'skill_dots.md', text: `---\n${agi('1790000001')}...\ndescription: after the dots\n---\n\nBody\n`, code: 'parse.second_document', line: 13, marker: '...' },
  // `--- # two` (not a bare delimiter, so it does not close the front matter) starts a second document
  { rel: 'skill_dashes.md', text: `---\n${agi('1790000002')}--- # two\nauthor: me\n---\n\nBody\n`, code: 'parse.second_document', line: 13, marker: '--- # two' },
  { rel: 'pack/SKILL.md', text: `---\nname: pack\ndescription: d\n...\nlicense: MIT\n---\n\nBody\n`, code: 'parse.second_document', line: 4, marker: '...' },
  // a second `---` … `---` block before the body (a blank line between, CRLF too)
  { rel: 'skill_block.md', text: `---\n${agi('1790000003')}---\n\n---\nauthor: me\nlicense: MIT\n---\n\nBody\n`, code: 'parse.second_front_matter', line: 15 },
  { rel: 'crlf/SKILL.md', text: `---\r\nname: crlf\r\ndescription: d\r\n---\r\n---\r\n# more\r\nlicense: MIT\r\n---\r\nBody\r\n`, code: 'parse.second_front_matter', line: 5 },
  // not a second document
  { rel: 'skill_end.md', text: `---\n${agi('1790000004')}...\n# only a note\n---\n\nBody\n` },
  { rel: 'skill_rule.md', text: `---\n${agi('1790000005')}---\n\n---\n\n# Heading\n\nText.\n\n---\n` },
  { rel: 'block/SKILL.md', text: `---\nname: block\ndescription: |\n  ...\n  --- not a document\nlicense: MIT\n---\n\nBody\n` }
]

let dir: string
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-second-doc-'))
  for (const f of FILES) {
    fs.mkdirSync(path.dirname(path.join(dir, f.rel)), { recursive: true })
    fs.writeFileSync(path.join(dir, f.rel), f.text)
  }
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

function cli(...argv: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'skillbench.cjs'), ...argv], { encoding: 'utf8', cwd: ROOT, timeout: 120_000, env: { ...process.env, SKILLBENCH_LANG: '' } })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

const refused = FILES.filter((f) => f.code)
const fine = FILES.filter((f) => !f.code)

describe('a second YAML document in front matter', () => {
  it('is refused by code with its line (parse); what is not one parses as before', () => {
    for (const f of refused) {
      const r = parseSkillText(f.text)
      expect(r.ok, f.rel).toBe(false)
      if (r.ok) continue
      expect({ messageCode: r.messageCode, params: r.params }, f.rel).toEqual({ messageCode: f.code, params: f.marker === undefined ? { line: f.line } : { line: f.line, marker: f.marker } })
      // the editor's finder points at the same line
      expect(locateSkillProblem(f.text)?.line, f.rel).toBe(f.line)
    }
    for (const f of fine) expect(parseSkillText(f.text).ok, f.rel).toBe(true)
    const end = parseSkillText(FILES.find((f) => f.rel === 'skill_end.md')!.text)
    expect(end.ok && end.file.data.user_preferences).toBe('')
    const block = parseSkillText(FILES.find((f) => f.rel === 'block/SKILL.md')!.text)
    expect(block.ok && block.file.data).toEqual({ name: 'block', description: '...\n--- not a document\n', license: 'MIT' })
  })

  it('the store lists each as not loaded with its code and line, in English and Chinese; no file changes', async () => {
    const before = new Map(FILES.map((f) => [f.rel, fs.readFileSync(path.join(dir, f.rel))]))
    const { skills, errors } = await (await openLibrary(dir)).list()
    expect(skills.map((s) => s.path).sort()).toEqual(fine.map((f) => f.rel).sort())
    const byPath = new Map(errors.map((e) => [e.path, e]))
    expect(errors.map((e) => e.path).sort()).toEqual(refused.map((f) => f.rel).sort())
    const dots = byPath.get('skill_dots.md')!
    expect(dots).toMatchObject({ messageCode: 'parse.second_document', params: { line: 13, marker: '...' } })
    expect(dots.reason).toBe('a second YAML document starts at line 13 (the line `...`): front matter is one YAML mapping, and nothing after that line would be read. Remove the line, or move what follows it into the mapping above')
    expect(translateMessage(dots, dots.reason, 'zh')).toBe('第 13 行（`...`）开始了第二个 YAML 文档：头信息只能是一个 YAML 映射，这一行之后的内容都不会被读取。请删除这一行，或把它后面的内容并入上面的映射')
    const block = byPath.get('skill_block.md')!
    expect(block).toMatchObject({ messageCode: 'parse.second_front_matter', params: { line: 15 } })
    expect(translateMessage(block, block.reason, 'zh')).toBe('第 15 行开始了第二个头信息块：只有第一个 `---` … `---` 块是头信息，这一块会被当作正文的开头读取。请把它的键移到第一个块中，或删除它')
    for (const f of FILES) expect(fs.readFileSync(path.join(dir, f.rel)).equals(before.get(f.rel)!), f.rel).toBe(true)
  })

  it('skillbench validate names each with its line (text and --json: stdout stays English, as every command’s) and fails', () => {
    const text = cli('validate', dir)
    expect(text.code).toBe(1)
    const lines = text.stdout.split('\n')
    const errorOf = (rel: string): string[] => lines.filter((l) => l.startsWith(`error   ${rel}:`))
    expect(errorOf('skill_dots.md')).toEqual([expect.stringContaining('a second YAML document starts at line 13 (the line `...`)')])
    expect(errorOf('skill_dashes.md')).toEqual([expect.stringContaining('a second YAML document starts at line 13 (the line `--- # two`)')])
    expect(errorOf('pack/SKILL.md')).toEqual([expect.stringContaining('a second YAML document starts at line 4 (the line `...`)')])
    expect(errorOf('skill_block.md')).toEqual([expect.stringContaining('a second front matter block starts at line 15')])
    expect(errorOf('crlf/SKILL.md')).toEqual([expect.stringContaining('a second front matter block starts at line 5')])
    for (const f of fine) expect(errorOf(f.rel).filter((l) => /second/.test(l)), f.rel).toEqual([])

    const json = cli('validate', '--json', dir)
    expect(json.code).toBe(1)
    const files = new Map((JSON.parse(json.stdout).files as { path: string; ok: boolean; problems: { params: { reason?: { messageCode: string; params: unknown } } }[] }[]).map((f) => [f.path, f]))
    for (const f of refused) {
      expect(files.get(f.rel)!.ok, f.rel).toBe(false)
      expect(files.get(f.rel)!.problems[0]!.params.reason, f.rel).toEqual({ messageCode: f.code, params: f.marker === undefined ? { line: f.line } : { line: f.line, marker: f.marker } })
    }

    for (const f of FILES) expect(fs.readFileSync(path.join(dir, f.rel), 'utf8'), f.rel).toBe(f.text)
  })
})

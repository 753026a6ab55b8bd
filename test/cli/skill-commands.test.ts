import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { CliIo } from '../../src/main/cli/common'
import { main } from '../../src/main/cli/index'
import { listJsonText } from '../../src/main/cli/commands/list'
import { listedSkill } from '../../src/main/search/search-index'
import { openLibrary } from '../../src/main/store/library'
import { copyTree, FIXTURE_LIBRARY, hashTree, tempDir } from '../store/helpers'

const ROOT = path.resolve(__dirname, '..', '..')

let dir: string

beforeEach(() => {
  dir = copyTree(FIXTURE_LIBRARY)
})

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

/** Runs the CLI in-process with a fake terminal. */
async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const io: CliIo = {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    isTTY: false,
    cwd: ROOT,
    env: {},
    signal: new AbortController().signal
  }
  const code = await main(argv, io)
  return { code, stdout, stderr }
}

/** Runs the real CLI as users do (`node bin/skillbench.cjs …`). */
function spawnCli(...argv: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'skillbench.cjs'), ...argv], { encoding: 'utf8', cwd: ROOT, timeout: 60_000 })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

describe('the real CLI process', () => {
  it('list --json: the documented shape, exit 0', () => {
    const r = spawnCli('list', '--library', dir, '--json')
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(Object.keys(out)).toEqual(['skills', 'errors', 'warnings'])
    expect(out.skills).toHaveLength(7)
    for (const s of out.skills) {
      for (const k of ['skill_id', 'title', 'path', 'format', 'quality_index', 'fetch_count', 'last_used_at']) expect(s).toHaveProperty(k)
      expect(s).not.toHaveProperty('body')
    }
    expect(out.errors.map((e: { path: string }) => e.path)).toContain('skill_js_engine.md')
  })

  it('list --json (printed from the saved JSON texts) is the same document as the store\'s listing printed whole', async () => {
    for (const legacy of [[], ['--legacy']]) {
      const r = spawnCli('list', '--library', dir, '--json', ...legacy)
      expect(r.code).toBe(0)
      const listed = await (await openLibrary(dir)).list({ includeLegacy: legacy.length > 0 })
      const out = JSON.parse(r.stdout) as { skills: unknown[]; errors: { path: string; kind?: string }[] }
      expect(out.skills).toEqual(listed.skills.map(listedSkill))
      const key = (e: { path: string; kind?: string }): string => `${e.kind}:${e.path}`
      expect(out.errors.map(key).sort()).toEqual(listed.errors.map(key).sort())
    }
    expect(listJsonText({ skills: [], errors: [] }).toString()).toBe(JSON.stringify({ skills: [], errors: [], warnings: [] }, null, 2) + '\n')
  })

  it('query --json --no-touch returns the query_skill answer and writes nothing', () => {
    const before = hashTree(dir)
    const r = spawnCli('query', '写一个Python计算器', '--library', dir, '--json', '--no-touch', '--top', '2')
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out).toMatchObject({ status: 'success', skills_count: 2 })
    expect(out.skills[0].skill_id).toBe('1768616001')
    expect(out.message.startsWith('Found 2 relevant skills:')).toBe(true)
    expect(hashTree(dir)).toEqual(before)
  })

  it('bad usage exits 2 and a failure exits 1, each with one line on stderr', () => {
    const usage = spawnCli('rate', '1768616001', '7', '--library', dir)
    expect(usage.code).toBe(2)
    expect(usage.stderr.trim().split('\n')).toHaveLength(1)
    const failure = spawnCli('delete', '1234567', '--library', dir)
    expect(failure.code).toBe(1)
    expect(failure.stderr.trim()).toBe('skillbench delete: no active skill with id 1234567')
  })
})

describe('skill commands in-process', () => {
  it('an id only a retired skill has is said to be retired, with where it is and what brings it back; an unknown id is still unknown', async () => {
    expect((await run('delete', '1768616001', '--library', dir)).code).toBe(0)
    const again = await run('delete', '1768616001', '--library', dir)
    expect(again.code).toBe(1)
    const retiredPath = (await (await openLibrary(dir)).list({ includeLegacy: true })).skills.find((s) => s.skill_id === '1768616001')!.path
    expect(retiredPath.startsWith('legacy/')).toBe(true)
    expect(again.stderr.trim()).toBe(`skillbench delete: skill 1768616001 is retired (${retiredPath}): restore it to use or change it`)
    const before = hashTree(dir)
    const rated = await run('rate', '1768616001', '0.9', '--library', dir, '--json')
    expect(rated.code).toBe(1)
    expect(JSON.parse(rated.stdout)).toMatchObject({ status: 'error', code: 'not_found', message_code: 'skill.retired_id', params: { id: '1768616001', path: retiredPath } })
    // refusing reads only: the retired file and everything else are as they were
    expect(hashTree(dir)).toEqual(before)
    expect((await run('restore', '1768616001', '--library', dir)).code).toBe(0)
    expect((await run('rate', '1768616001', '0.9', '--library', dir)).code).toBe(0)
    const unknown = await run('delete', '1234567', '--library', dir, '--json')
    expect(JSON.parse(unknown.stdout)).toMatchObject({ message_code: 'skill.no_active_id' })
  })

  it('list prints a readable table with CJK titles, and unreadable files', async () => {
    const r = await run('list', '--library', dir)
    expect(r.code).toBe(0)
    const lines = r.stdout.split('\n')
    expect(lines[0]).toBe('7 skill(s), 5 unreadable file(s)')
    expect(lines[2]).toMatch(/^ID\s+QUALITY\s+FETCHES\s+LAST USED\s+FMT\s+TITLE$/)
    expect(r.stdout).toContain('Python计算器开发：实现加减乘除、除零保护和单元测试')
    expect(r.stdout).toContain('  skill_js_engine.md: front matter language "js" is refused')
    const legacy = await run('list', '--library', dir, '--legacy', '--json')
    expect(JSON.parse(legacy.stdout).skills).toHaveLength(8)
  })

  it('--root-dir/--user addresses DIR/USER/general/experience', async () => {
    const root = tempDir('sb-root-')
    const exp = path.join(root, 'alice', 'general', 'experience')
    fs.mkdirSync(path.dirname(exp), { recursive: true })
    fs.cpSync(dir, exp, { recursive: true })
    const r = await run('list', '--root-dir', root, '--user', 'alice', '--json')
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).skills).toHaveLength(7)
    expect((await run('list', '--root-dir', root)).code).toBe(2)
    expect((await run('list')).code).toBe(2)
    fs.rmSync(root, { recursive: true, force: true })
  })

  it('query (touching) updates fetch_count; human output is a ranking', async () => {
    const r = await run('query', 'sort', 'a', 'CSV', 'spreadsheet', '--library', dir, '--top', '1')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^Found 1 relevant skill\(s\):\n\n#\s+SCORE\s+QUALITY\s+ID\s+TITLE\n1\s+0\.\d{3}\s+0\.70\s+1768616004\s+Sort a CSV/)
    const after = await run('list', '--library', dir, '--json')
    expect(JSON.parse(after.stdout).skills.find((s: { skill_id: string }) => s.skill_id === '1768616004').fetch_count).toBe(6)
    expect((await run('query', '--library', dir)).code).toBe(2)
    expect((await run('query', 'x', '--library', dir, '--top', '0')).code).toBe(2)
    expect((await run('query', 'x', '--library', dir, '--bogus')).code).toBe(2)
  })

  it('rate, edit, delete and copy-files', async () => {
    const rate = await run('rate', '1768616004', '1', '--library', dir, '--json')
    expect(rate.code).toBe(0)
    expect(JSON.parse(rate.stdout)).toMatchObject({ status: 'success', new_quality_index: 0.79 })

    const edit = await run('edit', '1768616004', '--mode', 'lines_replace', '--text', 'the header line', '--old', 'the header row', '--library', dir)
    expect(edit).toMatchObject({ code: 0, stdout: 'Skill 1768616004 edited (lines_replace)\n' })
    expect(fs.readFileSync(path.join(dir, 'skill_Sort a CSV file by a column.md'), 'utf8')).toContain('Keep the header line;')
    const notFound = await run('edit', '1768616004', '--mode', 'lines_replace', '--text', 'x', '--old', 'no such text', '--library', dir)
    expect(notFound.code).toBe(1)
    expect(notFound.stderr).toMatch(/^skillbench edit: old_code was not found/)
    expect((await run('edit', '1768616004', '--mode', 'explode', '--text', 'x', '--library', dir)).code).toBe(2)
    expect((await run('edit', '1768616004', '--mode', 'append', '--library', dir)).code).toBe(2)
    expect((await run('edit', '../etc', '--mode', 'append', '--text', 'x', '--library', dir)).code).toBe(2)

    const ws = tempDir('sb-cli-ws-')
    fs.writeFileSync(path.join(ws, 'main.py'), 'print("hi")\n')
    fs.writeFileSync(path.join(ws, 'conf.toml'), 'a = 1\n')
    const copy = await run('copy-files', '1768616001', 'main.py', 'conf.toml', '--workspace', ws, '--library', dir, '--json')
    expect(copy.code).toBe(0)
    expect(JSON.parse(copy.stdout)).toMatchObject({ copied: ['codes/task_calculator_project/main.py'], skipped: [{ path: 'conf.toml' }] })
    expect((await run('copy-files', '1768616001', 'main.py', '--library', dir)).code).toBe(2)
    const none = await run('copy-files', '1768616001', 'conf.toml', '--workspace', ws, '--library', dir)
    expect(none.code).toBe(1)
    fs.rmSync(ws, { recursive: true, force: true })

    const del = await run('delete', '1768616004', '--library', dir, '--json')
    expect(del.code).toBe(0)
    expect(JSON.parse(del.stdout).to).toBe('legacy/skill_Sort a CSV file by a column.md')
    expect((await run('delete', '1768616004', '--library', dir)).code).toBe(1)
  })

  it('a missing library is a failure (exit 1) with one clear line', async () => {
    const r = await run('list', '--library', path.join(dir, 'missing'))
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^skillbench list: library folder not found: .*missing\n$/)
  })
})

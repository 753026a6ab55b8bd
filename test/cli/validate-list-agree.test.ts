/**
 * `skillbench validate` and every listing (`list`, the store's listing the app and query read) read a skill file's
 * fields one way (store/skill-field-checks.ts): a value read with a default (`quality_index: high`, a missing
 * fetch_count) is loaded AND named as a warning by both, in the same words and code; a file the store refuses (an id
 * nothing can address) is an error in validate and "Not loaded" in the listing, with the same code. Real files on
 * disk, through the real CLI process.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openLibrary } from '../../src/main/store/library'
import { translateMessage } from '../../src/shared/error-codes-zh'
import { tempDir } from '../store/helpers'

const ROOT = path.resolve(__dirname, '..', '..')
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

function cli(...argv: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'skillbench.cjs'), ...argv], { encoding: 'utf8', cwd: ROOT, timeout: 60_000 })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

function write(dir: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
  fs.writeFileSync(path.join(dir, rel), text)
}

/** A library an agent wrote sloppily: every file still loads, some values only with a default. */
function sloppyLibrary(): string {
  const dir = tempDir('sb-validate-list-')
  dirs.push(dir)
  write(dir, 'skill_good.md', "---\nskill_id: '1700000001'\ntitle: Good\nusage_conditions: when\nquality_index: 0.7\nfetch_count: 2\ntask_directories: []\n---\n\nbody\n")
  write(dir, 'skill_sloppy.md', "---\nskill_id: '1700000002'\ntitle: Sloppy\nusage_conditions: when\nquality_index: high\ntask_directories: []\n---\n\nbody\n")
  return dir
}

type Warning = { path: string; reason: string; messageCode: string; params: Record<string, unknown> }

describe('validate and the listing name the same problems', () => {
  it('a value read with a default: loaded with the default, a warning in validate (exit 0) and in list, text and --json', async () => {
    const dir = sloppyLibrary()
    const v = cli('validate', dir)
    expect(v.code).toBe(0)
    expect(v.stdout).toContain('warning skill_sloppy.md: quality_index must be a number between 0 and 1, got "high"; read as 0.5\n')
    // a missing field is said to be missing, never "got undefined"
    expect(v.stdout).toContain('warning skill_sloppy.md: fetch_count is missing; read as 0\n')
    expect(v.stdout).not.toContain('undefined')
    expect(v.stdout).toContain('ok      skill_good.md\n')
    expect(v.stdout).toContain('2 file(s), 0 error(s), 2 warning(s)')

    const vj = cli('validate', dir, '--json')
    expect(vj.code).toBe(0)
    const report = JSON.parse(vj.stdout) as { files: Array<{ path: string; ok: boolean; problems: Array<{ level: string; message: string; messageCode: string; params: Record<string, unknown> }> }>; errors: number; warnings: number }
    expect([report.errors, report.warnings]).toEqual([0, 2])
    const sloppy = report.files.find((f) => f.path === 'skill_sloppy.md')!
    expect(sloppy.ok).toBe(true)
    const fromValidate = sloppy.problems.map((p) => ({ path: 'skill_sloppy.md', level: p.level, reason: p.message, messageCode: p.messageCode, params: p.params }))
    expect(fromValidate.map((p) => [p.level, p.messageCode])).toEqual([
      ['warning', 'field.quality_range'],
      ['warning', 'field.missing']
    ])

    const l = cli('list', '--library', dir, '--no-server')
    expect(l.code).toBe(0)
    expect(l.stdout).toContain('2 skill(s), 0 unreadable file(s), 1 read with defaults\n')
    expect(l.stdout).toMatch(/1700000002 +0\.50 +0 /)
    expect(l.stdout).toContain('\nRead with defaults')
    expect(l.stdout).toContain('  skill_sloppy.md: quality_index must be a number between 0 and 1, got "high"; read as 0.5\n')
    expect(l.stdout).toContain('  skill_sloppy.md: fetch_count is missing; read as 0\n')

    const lj = cli('list', '--library', dir, '--no-server', '--json')
    expect(lj.code).toBe(0)
    const listing = JSON.parse(lj.stdout) as { skills: Array<{ path: string; quality_index: number; load_warnings?: unknown[] }>; errors: unknown[]; warnings: Warning[] }
    expect(listing.errors).toEqual([])
    expect(listing.skills.find((s) => s.path === 'skill_sloppy.md')!.quality_index).toBe(0.5)
    expect(listing.skills.find((s) => s.path === 'skill_good.md')!.load_warnings).toBeUndefined()
    // the same words, code and params as validate's
    expect(listing.warnings).toEqual(fromValidate.map(({ level: _level, ...w }) => w))

    // the store's listing (the app's Skills list, query) holds them on the skill
    const store = await (await openLibrary(dir)).list()
    expect(store.errors).toEqual([])
    expect(store.skills.find((s) => s.path === 'skill_sloppy.md')!.load_warnings!.map((w) => w.messageCode)).toEqual(['field.quality_range', 'field.missing'])
    expect(store.skills.find((s) => s.path === 'skill_good.md')!.load_warnings).toBeUndefined()

    // and in Chinese by code
    const missing = listing.warnings.find((w) => w.messageCode === 'field.missing')!
    expect(translateMessage(missing, '', 'zh')).toBe('缺少 fetch_count；按 0 读取')
    const range = listing.warnings.find((w) => w.messageCode === 'field.quality_range')!
    expect(translateMessage(range, '', 'zh')).toBe('quality_index 必须是 0 到 1 之间的数字，收到的是 "high"；按 0.5 读取')
  })

  it('SKILL.md bookkeeping under metadata.skillbench: read with a default and named by both the same way', async () => {
    const dir = tempDir('sb-validate-list-md-')
    dirs.push(dir)
    write(dir, 'tidy-notes/SKILL.md', '---\nname: tidy-notes\ndescription: Tidies notes.\nmetadata:\n  skillbench:\n    quality_index: "0.9x"\n    fetch_count: 1.5\n---\n\nbody\n')
    const vj = cli('validate', dir, '--json')
    expect(vj.code).toBe(0)
    const problems = (JSON.parse(vj.stdout) as { files: Array<{ path: string; problems: Array<{ level: string; message: string; messageCode: string }> }> }).files.find((f) => f.path === 'tidy-notes/SKILL.md')!.problems
    expect(problems.map((p) => [p.level, p.message])).toEqual([
      ['warning', 'metadata.skillbench.quality_index must be a number between 0 and 1, got "0.9x"; read as 0.5'],
      ['warning', 'metadata.skillbench.fetch_count must be a whole number ≥ 0, got 1.5; read as 1']
    ])
    const listing = JSON.parse(cli('list', '--library', dir, '--no-server', '--json').stdout) as { warnings: Warning[] }
    expect(listing.warnings.map((w) => w.reason)).toEqual(problems.map((p) => p.message))
  })

  it('an id nothing can address: an error in validate (exit 1), not loaded in the listing, with the same code', async () => {
    const dir = sloppyLibrary()
    write(dir, 'skill_badid.md', '---\nskill_id: abc\ntitle: Bad id\nquality_index: 0.5\nfetch_count: 0\ntask_directories: []\n---\n\nbody\n')
    write(dir, 'bad-stored/SKILL.md', "---\nname: bad-stored\ndescription: d\nmetadata:\n  skillbench:\n    skill_id: 'x1'\n---\n\nbody\n")
    const vj = cli('validate', dir, '--json')
    expect(vj.code).toBe(1)
    const report = JSON.parse(vj.stdout) as { files: Array<{ path: string; ok: boolean; problems: Array<{ level: string; messageCode: string }> }> }
    const codesOf = (p: string): string[] => report.files.find((f) => f.path === p)!.problems.filter((x) => x.level === 'error').map((x) => x.messageCode)
    expect(codesOf('skill_badid.md')[0]).toBe('parse.invalid_skill_id')
    expect(codesOf('bad-stored/SKILL.md')).toEqual(['parse.invalid_stored_id'])
    const listing = JSON.parse(cli('list', '--library', dir, '--no-server', '--json').stdout) as { errors: Array<{ path: string; messageCode: string }> }
    expect(listing.errors.map((e) => [e.path, e.messageCode]).sort()).toEqual([
      ['bad-stored/SKILL.md', 'parse.invalid_stored_id'],
      ['skill_badid.md', 'parse.invalid_skill_id']
    ])
    const text = cli('validate', dir)
    expect(text.stdout).toContain('skill_badid.md:      invalid skill_id "abc" (1–20 digits expected)\n')
  })
})

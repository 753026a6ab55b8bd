/**
 * An unclosed quote or bracket in a skill file's front matter is said where it opened, by every way the error
 * travels from the real CLI (`node bin/skillbench.cjs`): `validate` (text and --json) and `list`'s "Not loaded"
 * lines (and --json). The parser notices it only where the text ends or a line is indented too little to go on with
 * it, and used to say that place ("something is missing … (at line 8, column 1)") instead.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeUnclosedLibrary, MULTILINE_OK, UNCLOSED_CASES } from '../store/broken-library'

const ROOT = path.resolve(__dirname, '..', '..')

let dir: string
beforeAll(() => {
  dir = makeUnclosedLibrary()
})
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

/** `node bin/skillbench.cjs …`, as a user runs it (English, whatever the developer's shell says). */
function cli(...argv: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'skillbench.cjs'), ...argv], { encoding: 'utf8', cwd: ROOT, timeout: 120_000, env: { ...process.env, SKILLBENCH_LANG: '' } })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

const FORMAT_OF = (rel: string): string => (rel.endsWith('SKILL.md') ? 'SKILL.md' : 'AGIAgent skill')

describe('an unclosed quote or bracket, through the CLI', () => {
  it('validate says where each opened, in its text lines and in --json by code; the multi-line values are fine', () => {
    const text = cli('validate', dir)
    expect(text.code).toBe(1)
    const lines = text.stdout.trimEnd().split('\n')
    expect(lines.pop()).toMatch(new RegExp(`^${UNCLOSED_CASES.length + MULTILINE_OK.length} file\\(s\\), `))
    const of = (rel: string): string[] => lines.filter((l) => l.split(':')[0] === `error   ${rel}`).map((l) => l.replace(/^error {3}\S+: +/, ''))
    for (const c of UNCLOSED_CASES) expect(of(c.rel), c.rel).toEqual([`${FORMAT_OF(c.rel)}: invalid YAML: ${c.words}`])
    // (skill_g.md is an AGIAgent file among SKILL.md folders, which validate says too; its YAML is fine)
    for (const ok of MULTILINE_OK) expect(of(ok.rel).filter((l) => /YAML/.test(l)), ok.rel).toEqual([])
    expect(lines).toContain('ok      multi/SKILL.md')

    const json = cli('validate', '--json', dir)
    expect(json.code).toBe(1)
    const files = new Map((JSON.parse(json.stdout).files as { path: string; ok: boolean; problems: { message: string; params: { reason: unknown } }[] }[]).map((f) => [f.path, f]))
    for (const c of UNCLOSED_CASES) {
      const f = files.get(c.rel)!
      expect(f.ok, c.rel).toBe(false)
      expect(f.problems.map((p) => p.message), c.rel).toEqual([`${FORMAT_OF(c.rel)}: invalid YAML: ${c.words}`])
      expect(f.problems[0]!.params.reason, c.rel).toEqual({ messageCode: 'parse.yaml', params: { problem: c.problem } })
    }
    for (const ok of MULTILINE_OK) expect(files.get(ok.rel)!.problems.filter((p) => /YAML/.test(p.message)), ok.rel).toEqual([])
  })

  it("list's Not loaded lines and --json errors say the same place", () => {
    const text = cli('list', '--library', dir, '--no-server')
    expect(text.code).toBe(0)
    const notLoaded = text.stdout.split('\nNot loaded:\n')[1]!.trimEnd().split('\n')
    expect(notLoaded.sort()).toEqual(UNCLOSED_CASES.map((c) => `  ${c.rel}: invalid YAML: ${c.words}`).sort())

    const json = cli('list', '--library', dir, '--no-server', '--json')
    expect(json.code).toBe(0)
    const out = JSON.parse(json.stdout) as { skills: { path: string }[]; errors: { path: string; reason: string; messageCode: string; params: unknown }[] }
    expect(out.skills.map((s) => s.path).sort()).toEqual(MULTILINE_OK.map((m) => m.rel).sort())
    for (const c of UNCLOSED_CASES) {
      expect(out.errors.find((e) => e.path === c.rel), c.rel).toMatchObject({ reason: `invalid YAML: ${c.words}`, messageCode: 'parse.yaml', params: { problem: c.problem } })
    }
  })
})

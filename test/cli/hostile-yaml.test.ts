/**
 * A library of hostile skill files, through the real CLI (`node bin/skillbench.cjs`): `list` and `validate` read
 * every one (the 5,000-`[` file several times over), exit as they always do, and say each file's coded reason at a
 * fixed line and column. Reading three such files in one process used to kill it ("process out of memory").
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tempDir } from '../store/helpers'
import { HOSTILE_FRONT_MATTER, skillFile } from '../store/hostile-yaml'

const ROOT = path.resolve(__dirname, '..', '..')
/** Copies of the first case (5,000 unclosed `[`): one process reads them all. */
const COPIES = 6

/** `skill_<n>.md` → the case it holds. */
const CASE_OF = new Map<string, (typeof HOSTILE_FRONT_MATTER)[number]>()
let dir: string
beforeAll(() => {
  dir = tempDir('sb-hostile-yaml-')
  let n = 1
  const put = (text: string): string => {
    const rel = `skill_${n++}.md`
    fs.writeFileSync(path.join(dir, rel), text)
    return rel
  }
  put(`---\nskill_id: '1'\ntitle: A fine skill\nusage_conditions: x\nquality_index: 0.5\nfetch_count: 1\ntask_directories: []\n---\n\nbody\n`)
  for (const c of HOSTILE_FRONT_MATTER) CASE_OF.set(put(skillFile(c.yaml())), c)
  for (let i = 1; i < COPIES; i++) CASE_OF.set(put(skillFile(HOSTILE_FRONT_MATTER[0]!.yaml())), HOSTILE_FRONT_MATTER[0]!)
})
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

function cli(...argv: string[]): { code: number | null; signal: string | null; stdout: string; stderr: string; ms: number } {
  const started = Date.now()
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'skillbench.cjs'), ...argv], { encoding: 'utf8', cwd: ROOT, timeout: 120_000, env: { ...process.env, SKILLBENCH_LANG: '' } })
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, ms: Date.now() - started }
}

describe('hostile skill files, through the CLI', () => {
  it('list --json loads the fine skill and gives every hostile file its coded reason', () => {
    const r = cli('list', '--library', dir, '--no-server', '--json')
    expect({ code: r.code, signal: r.signal, stderr: r.stderr }).toEqual({ code: 0, signal: null, stderr: '' })
    const out = JSON.parse(r.stdout) as { skills: { path: string }[]; errors: { path: string; reason: string; messageCode: string; params: unknown }[] }
    expect(out.skills.map((s) => s.path)).toEqual(['skill_1.md'])
    expect(out.errors.map((e) => e.path).sort()).toEqual([...CASE_OF.keys()].sort())
    for (const e of out.errors) {
      const c = CASE_OF.get(e.path)!
      expect(e, `${e.path}: ${c.name}`).toMatchObject({ reason: c.words, ...c.reason })
    }
    expect(r.ms).toBeLessThan(60_000)
  })

  it('list (text) and validate --json say the same, twice in a row alike', () => {
    const text = cli('list', '--library', dir, '--no-server')
    expect({ code: text.code, signal: text.signal }).toEqual({ code: 0, signal: null })
    const notLoaded = text.stdout.split('\nNot loaded:\n')[1]!.trimEnd().split('\n')
    expect(notLoaded.sort()).toEqual([...CASE_OF].map(([rel, c]) => `  ${rel}: ${c.words}`).sort())

    const runs = [cli('validate', '--json', dir), cli('validate', '--json', dir)]
    for (const r of runs) {
      expect({ code: r.code, signal: r.signal }).toEqual({ code: 1, signal: null })
      const files = JSON.parse(r.stdout).files as { path: string; ok: boolean; problems: { message: string; params: { reason: unknown } }[] }[]
      for (const f of files.filter((f) => CASE_OF.has(f.path))) {
        const c = CASE_OF.get(f.path)!
        expect(f.ok, f.path).toBe(false)
        // validate does not read a file over its size cap at all (list reads it and refuses its front matter)
        if (fs.statSync(path.join(dir, f.path)).size > 2 * 1024 * 1024) {
          expect(f.problems.map((p) => p.message), f.path).toEqual(['file is larger than 2097152 bytes'])
          continue
        }
        expect(f.problems.map((p) => p.message), `${f.path}: ${c.name}`).toEqual([`AGIAgent skill: ${c.words}`])
        expect(f.problems[0]!.params.reason, f.path).toEqual(c.reason)
      }
    }
    expect(runs[1]!.stdout).toBe(runs[0]!.stdout)
  })
})

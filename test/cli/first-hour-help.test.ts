/**
 * `skillbench <command> --help` says what each option does, for the commands of a newcomer's first hour (their
 * usage line alone listed `--no-touch`, `--no-server`, `--eps`…), and carries every flag the README's CLI table
 * shows. And `use` says when there is no learned skill to match instead of only "no learned skill matches".
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../formats/helpers'
import { tempDir } from '../store/helpers'

const ROOT = path.resolve(__dirname, '..', '..')

/** The CLI in-process (test/formats/helpers runCli) with this file's folder and environment. */
function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCli(argv, ROOT, {})
}

/** The flags of the usage lines (those before the first explanation line). */
function usageFlags(help: string): string[] {
  const lines = help.split('\n')
  const usage = lines.slice(0, lines.findIndex((l, i) => i > 0 && /^\s+--/.test(l)))
  return [...new Set(usage.join(' ').match(/--[a-z][a-z-]*/g) ?? [])]
}

/** Flags explained: those that start an indented line, alone or in a list (`  --root-dir, --claude-dir DIR`). */
function explained(help: string): Set<string> {
  const out = new Set<string>()
  for (const line of help.split('\n')) {
    const m = /^\s+((?:--[a-z][a-z-]*(?:, )?)+)/.exec(line)
    if (m) for (const f of m[1]!.match(/--[a-z][a-z-]*/g)!) out.add(f)
  }
  return out
}

// How a library or a model is named: said once in the top-level help and the README, not per command.
const ADDRESS = new Set(['--library', '--root-dir', '--user', '--json', '--llm', '--base-url', '--model'])

describe('--help of the first-hour commands', () => {
  it.each(['list', 'query', 'scan', 'curate', 'usage'])('%s explains each of its options', async (name) => {
    const { code, stdout } = await run(name, '--help')
    expect(code).toBe(0)
    const flags = usageFlags(stdout).filter((f) => name === 'scan' ? true : !ADDRESS.has(f))
    expect(flags.length).toBeGreaterThan(1)
    const said = explained(stdout)
    expect(flags.filter((f) => !said.has(f))).toEqual([])
  })

  it("carries every flag of the README's CLI table", async () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n')
    const start = readme.findIndex((l) => l.startsWith('| command | what it does'))
    const rows = readme.slice(start + 2, readme.findIndex((l, i) => i > start + 2 && !l.startsWith('|')))
    let checked = 0
    for (const row of rows) {
      for (const m of row.matchAll(/`skillbench ([a-z-]+)([^`]*)`/g)) {
        const { stdout } = await run(m[1]!, '--help')
        for (const flag of m[2]!.match(/--[a-z][a-z-]*/g) ?? []) {
          expect(stdout, `skillbench ${m[1]} --help`).toContain(flag)
          checked++
        }
      }
    }
    expect(checked).toBeGreaterThan(50)
  })
})

describe('use with nothing to match', () => {
  it('a --dir that is not there, or holds no learned skill, is said on stderr; exit and output as before', async () => {
    const gone = path.join(tempDir('sb-use-'), 'not-there')
    const missing = await run('use', 'how do I plan', '--dir', gone)
    expect(missing).toEqual({
      code: 1,
      stdout: 'no learned skill matches this question\n',
      stderr: `skillbench use: there is no folder ${gone}: give --dir DIR, the folder of learned skills (*.yaml with a trigger_pattern; default .sman/skills)\n`
    })
    const skillMd = path.join(ROOT, 'test', 'fixtures', 'formats', 'skill-md')
    const none = await run('use', 'how do I plan', '--dir', skillMd, '--json')
    expect(none.code).toBe(1)
    expect(JSON.parse(none.stdout)).toMatchObject({ matches: [], rejected: [], errors: [] })
    expect(none.stderr).toBe(`skillbench use: no learned skill in ${skillMd} (*.yaml with a trigger_pattern)\n`)
    // a folder of learned skills: no such line, whatever matches
    const learned = await run('use', 'how do I plan', '--dir', path.join(ROOT, 'test', 'fixtures', 'formats', 'learned'))
    expect(learned.stderr).not.toContain('no learned skill in')
    expect(learned.stderr).not.toContain('there is no folder')
  })
})

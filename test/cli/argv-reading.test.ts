/**
 * One reading of argv, by the command's own option table (arg-words readArgs), for everything main reads before the
 * command runs: `--help`/`-h`, `--json` and the CLI's `--lang`, and reflect's `--hook`. A word the command takes as a
 * positional (after `--`) or as an option's value (`--text -h`) is never taken for one of those. Through
 * bin/skillbench.cjs as its own process, on a copy of the fixture library.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { joinDashValues, readArgs } from '../../src/main/cli/arg-words'
import { langOption } from '../../src/main/cli/lang'
import { copyTree, FIXTURE_LIBRARY } from '../store/helpers'

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'skillbench.cjs')
const ENV = { ...process.env, NODE_OPTIONS: '', SKILLBENCH_FROM_SOURCE: '1', SKILLBENCH_LANG: '' }

let dir: string
beforeEach(() => {
  dir = copyTree(FIXTURE_LIBRARY)
})
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

function cli(argv: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...argv], { encoding: 'utf8', timeout: 90_000, env: ENV })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

const fileOf = (id: string): string => {
  const name = fs.readdirSync(dir).find((f) => f.endsWith('.md') && fs.readFileSync(path.join(dir, f), 'utf8').includes(`skill_id: '${id}'`))
  return path.join(dir, name ?? `no file for ${id}`)
}

describe('positionals and option values are the command\'s, not main\'s', () => {
  it('query -- --help looks up "--help" (it printed the help); --help before `--` still does', () => {
    const r = cli(['query', '--library', dir, '--no-server', '--no-touch', '--json', '--', '--help'])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'success' })
    const help = cli(['query', '--library', dir, '--help', '--', 'csv'])
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/^Usage: skillbench query/)
  }, 120_000)

  it('edit --text -h appends "-h" (the value, as with "- a bullet"; it printed the help and changed nothing)', () => {
    const file = fileOf('1768616001')
    const r = cli(['edit', '1768616001', '--mode', 'append', '--text', '-h', '--library', dir])
    expect(r).toEqual({ code: 0, stdout: 'Skill 1768616001 edited (append)\n', stderr: expect.stringMatching(/^Undo with: skillbench undo \S+\n$/) })
    expect(fs.readFileSync(file, 'utf8').trimEnd().endsWith('\n-h')).toBe(true)
  }, 120_000)

  it('reflect -- --hook: a positional, not the hook (which exits 1 and takes positionals)', () => {
    const r = cli(['reflect', '--root-dir', path.join(dir, 'nowhere'), '--', '--hook'])
    expect(r).toEqual({ code: 2, stdout: '', stderr: "skillbench reflect: Unexpected argument '--hook'. This command does not take positional arguments\n" })
  }, 120_000)

  it('query --lang zh TEXT: the text is the query, as after it or with --lang before the command', () => {
    const plain = cli(['query', 'csv', '--library', dir, '--no-server', '--no-touch', '--json'])
    expect(plain.code).toBe(0)
    for (const argv of [
      ['query', '--lang', 'zh', 'csv', '--library', dir, '--no-server', '--no-touch', '--json'],
      ['query', 'csv', '--lang=zh', '--library', dir, '--no-server', '--no-touch', '--json'],
      ['--lang', 'zh', 'query', 'csv', '--library', dir, '--no-server', '--no-touch', '--json']
    ]) {
      expect(cli(argv), argv.join(' ')).toEqual(plain)
    }
  }, 120_000)
})

describe('readArgs: the reading itself (pure)', () => {
  const table = { text: { type: 'string' }, top: { type: 'string' }, json: { type: 'boolean' } } as const
  const roles = (argv: string[]): string[] => readArgs(argv, table).map((w) => `${w.role}:${w.word}`)

  it('values, dash values, a forgotten value, short options, and `--`', () => {
    expect(roles(['a', '--text', 'b', '--top', '-1', '--json', '-h', 'c'])).toEqual(['positional:a', 'option:--text', 'value:b', 'option:--top', 'value:-1', 'option:--json', 'option:-h', 'positional:c'])
    // a long option after one that takes a value: the value was forgotten (parseArgs says so); `--` is no value
    expect(roles(['--text', '--json', '--top', '--', '--json'])).toEqual(['option:--text', 'option:--json', 'option:--top', 'end:--', 'positional:--json'])
    expect(roles(['--text=--json', '-', '--unknown', 'x'])).toEqual(['option:--text=--json', 'positional:-', 'option:--unknown', 'positional:x'])
    expect(joinDashValues(['--text', '-h', '--json', '--', '--text', '-y'], table)).toEqual(['--text=-h', '--json', '--', '--text', '-y'])
  })

  it("langOption reads after the command's name by its table", () => {
    const of = (): typeof table => table
    expect(langOption(['q', '--text', 'zh', '--lang', 'zh', 'a'], {}, () => false, of)).toEqual({ argv: ['q', '--text', 'zh', 'a'], lang: 'zh' })
    expect(langOption(['q', '--text', '--lang', 'zh'], {}, () => false, of)).toEqual({ argv: ['q', '--text=--lang', 'zh'], lang: 'en' })
    expect(langOption(['q', '--', '--lang', 'zh'], {}, () => false, of)).toEqual({ argv: ['q', '--', '--lang', 'zh'], lang: 'en' })
    expect(langOption(['--lang', 'zh', 'q', 'a'], {}, () => false, of)).toEqual({ argv: ['q', 'a'], lang: 'zh' })
    expect(langOption(['q', 'a', '--lang'], {}, () => false, of).problem?.messageCode).toBe('cli.needs_value')
  })
})

/**
 * The CLI's `--lang` against the commands' own options, through bin/skillbench.cjs as its own process: a `--lang`
 * word that is the value of an option that takes one (by the command's own option table) reaches that option
 * unchanged; `--lang zh` still words stderr before and after the command's name; every command's `--help` names
 * `--lang` and SKILLBENCH_LANG (in English).
 */
import { execFile, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { copyTree, FIXTURE_LIBRARY } from '../store/helpers'
import { COMMANDS } from '../../src/main/cli/registry'

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
  const r = spawnSync(process.execPath, [BIN, ...argv], { encoding: 'utf8', timeout: 60_000, env: ENV })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** Every file of the library whose text has `needle`. */
function filesWith(needle: string): string[] {
  const found: string[] = []
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name)
      if (e.isDirectory()) walk(p)
      else if (e.isFile() && fs.readFileSync(p, 'utf8').includes(needle)) found.push(p)
    }
  }
  walk(dir)
  return found
}

describe('--lang as the value of a command option', () => {
  it('edit --text --lang: the skill gets the text "--lang" (not the CLI\'s --lang), and --lang zh beside it still words stderr', () => {
    const skills = JSON.parse(cli(['list', '--library', dir, '--json']).stdout) as { skills: { skill_id: string }[] }
    const id = skills.skills[0]!.skill_id
    expect(filesWith('\n--lang')).toEqual([])
    const r = cli(['edit', id, '--mode', 'append', '--text', '--lang', '--library', dir])
    // only the undo line (3dafd54), in English: no --lang was read
    expect(r.stderr).toMatch(/^Undo with: skillbench undo \S+\n$/)
    expect(r.code).toBe(0)
    expect(filesWith('\n--lang')).toHaveLength(1)

    // --lang=zh as a value is text too: nothing is said in Chinese, the text is kept byte for byte
    const joined = cli(['edit', id, '--mode', 'append', '--text', '--lang=zh', '--library', dir])
    expect(joined.code).toBe(0)
    expect(joined.stderr).toMatch(/^Undo with: skillbench undo \S+\n$/)
    expect(filesWith('\n--lang=zh')).toHaveLength(1)

    // the value, and the CLI's own --lang zh after it (and before the command's name): the error is in Chinese
    const zhAfter = cli(['edit', '99999', '--mode', 'append', '--text', '--lang', '--library', dir, '--lang', 'zh'])
    expect(zhAfter).toEqual({ code: 1, stdout: '', stderr: 'skillbench edit: 没有 id 为 99999 的在用技能\n' })
    const zhBefore = cli(['--lang', 'zh', 'edit', '99999', '--mode', 'append', '--text', '--lang', '--library', dir])
    expect(zhBefore).toEqual({ code: 1, stdout: '', stderr: 'skillbench edit: 没有 id 为 99999 的在用技能\n' })
  }, 120_000)

  it('query --top --lang: --top gets "--lang" (its own complaint), the text "--lang" after `--` is left alone', () => {
    const r = cli(['query', 'csv', '--library', dir, '--top', '--lang', '--no-server', '--no-touch'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--top')
    expect(r.stderr).not.toContain('--lang')
    const literal = cli(['query', '--library', dir, '--no-server', '--no-touch', '--json', '--', '--lang'])
    expect(literal.code).toBe(0)
    expect(literal.stderr).toBe('')
  }, 120_000)

  it('--lang zh still works before and after the command name when no option takes it', () => {
    const expected = { code: 1, stdout: '', stderr: 'skillbench rate: 没有 id 为 99999 的在用技能\n' }
    expect(cli(['rate', '99999', '0.5', '--library', dir, '--lang', 'zh'])).toEqual(expected)
    expect(cli(['--lang', 'zh', 'rate', '99999', '0.5', '--library', dir])).toEqual(expected)
    // a --lang with no option before it that takes a value stays the CLI's: a missing value is still bad usage
    expect(cli(['rate', '99999', '0.5', '--library', dir, '--lang']).code).toBe(2)
  }, 120_000)
})

describe('every command\'s --help names --lang', () => {
  it('each command in the registry, and the top-level help', async () => {
    const help = (argv: string[]): Promise<string> =>
      new Promise((resolve, reject) =>
        execFile(process.execPath, [BIN, ...argv], { encoding: 'utf8', timeout: 90_000, env: ENV }, (err, stdout) => (err ? reject(err) : resolve(stdout)))
      )
    const names = Object.keys(COMMANDS)
    expect(names.length).toBeGreaterThan(20)
    const texts = await Promise.all(names.map((n) => help([n, '--help'])))
    const missing = names.filter((_, i) => !/--lang zh\b.*SKILLBENCH_LANG/.test(texts[i]!))
    expect(missing).toEqual([])
    // English, like all help, even when --lang zh is asked for
    expect(await help(['query', '--help', '--lang', 'zh'])).toContain('Add --lang zh (or set SKILLBENCH_LANG=zh) for errors and progress on stderr in Chinese')
    expect(await help(['--help'])).toMatch(/--lang zh\b.*SKILLBENCH_LANG/)
  }, 180_000)
})

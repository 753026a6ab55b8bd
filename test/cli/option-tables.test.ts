/**
 * Every command parses argv with the option table it declares (CliCommand.options: what main reads `--lang`,
 * `--help`, `--json` and the bundled-sample guard's paths by), so a table and its parser cannot drift apart. For each
 * command in the registry, as its own process (bin/skillbench.cjs): every declared option is accepted (given, with a
 * value when it takes one, before an undeclared one), and the undeclared one is the coded unknown-option usage error
 * listing exactly the declared table — `cli.unknown_option`, or `cli.unknown_option_none` for a command with no options.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COMMANDS } from '../../src/main/cli/registry'
import { coded } from '../../src/shared/error-codes'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'skillbench.cjs')
const ENV = { ...process.env, NODE_OPTIONS: '', SKILLBENCH_FROM_SOURCE: '1', SKILLBENCH_LANG: '' }
/** No command has it, and it is close to no option's name (else the error names the option meant). */
const UNDECLARED = '--zzq-not-an-option'

let cwd: string
beforeAll(() => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-option-tables-'))
})
afterAll(() => {
  fs.rmSync(cwd, { recursive: true, force: true })
})

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

function cli(argv: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...argv], { encoding: 'utf8', timeout: 90_000, env: ENV, cwd }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: unknown }).code as number | null) : 0, stdout, stderr })
    )
  })
}

/** Every declared option once: `--name x` for one that takes a value, `--name` for a flag. */
function allOptions(table: Readonly<Record<string, { type: 'string' | 'boolean' }>>): string[] {
  return Object.entries(table).flatMap(([name, spec]) => (spec.type === 'string' ? [`--${name}`, 'x'] : [`--${name}`]))
}

describe('each command parses with the option table it declares', () => {
  it('every declared option is accepted; an undeclared one is the coded unknown-option error naming the table', async () => {
    const names = Object.keys(COMMANDS)
    expect(names.length).toBeGreaterThan(30)
    const tables = await Promise.all(names.map(async (n) => (await COMMANDS[n]!.load()).command))
    tables.forEach((c, i) => expect(c.name, 'a command module is the registry entry of that name').toBe(names[i]))
    const runs = await Promise.all(names.map((n, i) => cli([n, ...allOptions(tables[i]!.options), UNDECLARED])))
    const wrong: string[] = []
    names.forEach((name, i) => {
      const table = tables[i]!.options
      const declared = Object.keys(table)
      const problem = declared.length > 0 ? coded('cli.unknown_option', { option: UNDECLARED, options: declared.map((o) => `--${o}`).join(', ') }) : coded('cli.unknown_option_none', { option: UNDECLARED })
      // reflect run by an agent's hook (--hook) says every failure on its own line and exits 1, never 2 (reflect.ts)
      const hook = Object.hasOwn(table, 'hook')
      const expected: Run = {
        code: hook ? 1 : 2,
        stdout: Object.hasOwn(table, 'json') && !hook ? `${JSON.stringify({ status: 'error', message: problem.text, code: 'usage', message_code: problem.messageCode, params: problem.params })}\n` : '',
        stderr: `skillbench ${name}${hook ? ' --hook' : ''}: ${problem.text}\n`
      }
      const got = runs[i]!
      if (got.code !== expected.code || got.stdout !== expected.stdout || got.stderr !== expected.stderr) {
        wrong.push(`${name}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`)
      }
    })
    expect(wrong).toEqual([])
  }, 240_000)

  it('a command with no options refuses one by the coded error, in Chinese too; a command with options lists them', async () => {
    expect(await cli(['version', UNDECLARED])).toEqual({ code: 2, stdout: '', stderr: `skillbench version: unknown option ${UNDECLARED} (this command takes no options)\n` })
    expect(await cli(['version', UNDECLARED, '--lang', 'zh'])).toEqual({ code: 2, stdout: '', stderr: `skillbench version: 未知的选项 ${UNDECLARED}（此命令没有选项）\n` })
    expect(await cli(['version'])).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' })
    expect(translateMessage(coded('cli.unknown_option_none', { option: '--x' }), '', 'zh')).toBe('未知的选项 --x（此命令没有选项）')
  }, 60_000)
})

/**
 * Bad usage under --json (issue 40 point 4): the same `{status: 'error', message, code, message_code, params}` a
 * command's other failures print on stdout, while stderr keeps its one English line and the exit code stays 2.
 * Without --json nothing changes: stdout stays empty. Through the CLI's own entry, on a copy of the fixture library.
 */
import fs from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli, snapshot } from '../formats/helpers'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { copyTree, FIXTURE_LIBRARY } from '../store/helpers'

let dir: string

beforeEach(() => {
  dir = copyTree(FIXTURE_LIBRARY)
})

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

const run = (...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> => runCli(argv, dir, {})

/** Runs argv with --json and without: the same stderr line and exit 2 both times; stdout's JSON only with it. */
async function usage(argv: string[], stderr: string): Promise<Record<string, unknown> & { message_code: string; params: Record<string, unknown> }> {
  const plain = await run(...argv)
  expect(plain, argv.join(' ')).toEqual({ code: 2, stdout: '', stderr })
  const withJson = await run(...argv, '--json')
  expect(withJson.code, argv.join(' ')).toBe(2)
  expect(withJson.stderr).toBe(stderr)
  expect(withJson.stdout.endsWith('\n')).toBe(true)
  const answer = JSON.parse(withJson.stdout)
  expect(answer).toMatchObject({ status: 'error', code: 'usage', message: stderr.replace(/^skillbench( [a-z-]+)?: /, '').trimEnd() })
  return answer
}

const zh = (answer: { message_code: string; params: Record<string, unknown> }): string =>
  translateMessage({ messageCode: answer.message_code, params: answer.params }, '', 'zh')

describe('bad usage with --json', () => {
  it('an option typo, an unknown option, a missing value and a value given to a flag: coded, worded in Chinese by code', async () => {
    const typo = await usage(['list', '--libary', dir], 'skillbench list: unknown option --libary: did you mean --library? (see --help)\n')
    expect(typo).toMatchObject({ message_code: 'cli.unknown_option_meant', params: { option: '--libary', meant: '--library' } })
    expect(zh(typo)).toBe('未知的选项 --libary：是不是想用 --library？（见 --help）')

    const unknown = await usage(['list', '--colour', '--library', dir], "skillbench list: unknown option --colour (this command's options: --library, --root-dir, --user, --json, --legacy, --no-server)\n")
    expect(unknown).toMatchObject({ message_code: 'cli.unknown_option', params: { option: '--colour', options: '--library, --root-dir, --user, --json, --legacy, --no-server' } })
    expect(zh(unknown)).toContain('未知的选项 --colour（此命令的选项有：--library')

    const before = snapshot(dir)
    const missing = await usage(['edit', '1768616001', '--mode', 'append', '--library', dir, '--text'], 'skillbench edit: --text needs a value (for a value that starts with "--", write --text=VALUE)\n')
    expect(missing).toMatchObject({ message_code: 'cli.needs_value', params: { option: '--text' } })
    expect(zh(missing)).toBe('--text 需要一个值（以“--”开头的值请写成 --text=VALUE）')
    expect(snapshot(dir)).toEqual(before)

    // --json=yes is itself the mistake: still answered as JSON
    const valued = await run('list', '--json=yes', '--library', dir)
    expect(valued.code).toBe(2)
    expect(valued.stderr).toBe('skillbench list: --json takes no value\n')
    expect(JSON.parse(valued.stdout)).toEqual({ status: 'error', message: '--json takes no value', code: 'usage', message_code: 'cli.takes_no_value', params: { option: '--json' } })
  })

  it('an unknown command, with the command meant and without', async () => {
    const typo = await usage(['lst', '--library', dir], "skillbench: unknown command 'lst': did you mean list? (see skillbench --help)\n")
    expect(typo).toMatchObject({ message_code: 'cli.unknown_command_meant', params: { command: 'lst', meant: 'list' } })
    expect(zh(typo)).toBe('未知的命令“lst”：是不是想用 list？（见 skillbench --help）')
    const none = await usage(['frobnicate'], "skillbench: unknown command 'frobnicate' (see skillbench --help)\n")
    expect(none).toMatchObject({ message_code: 'cli.unknown_command', params: { command: 'frobnicate' } })
  })

  it("no library said, a command's own checks: their codes, the table's own where the words are its", async () => {
    const which = await usage(['list'], 'skillbench list: say which library: --library DIR, or --root-dir DIR --user NAME\n')
    expect(which).toMatchObject({ message_code: 'cli.which_library', params: {} })
    expect(zh(which)).toBe('请指定技能库：--library DIR，或 --root-dir DIR --user NAME')
    const rootOnly = await usage(['list', '--root-dir', dir], 'skillbench list: --root-dir needs --user NAME (or give --library DIR)\n')
    expect(rootOnly.message_code).toBe('cli.root_dir_needs_user')

    const extra = await usage(['list', 'extra', '--library', dir], "skillbench list: unexpected argument 'extra'\n")
    expect(extra).toMatchObject({ message_code: 'cli.unexpected_argument', params: { argument: 'extra' } })
    expect(zh(extra)).toBe('多余的参数“extra”')

    const badId = await usage(['rate', '12ab', '0.5', '--library', dir], 'skillbench rate: invalid skill id "12ab": an id is 1–20 digits\n')
    expect(badId).toMatchObject({ message_code: 'skill.invalid_id', params: { id: '"12ab"' } })
    expect(zh(badId)).toBe('无效的技能 id "12ab"：id 必须是 1–20 位数字')

    const rating = await usage(['rate', '1768616001', '7', '--library', dir], "skillbench rate: RATING must be a number from 0 to 1 (got '7')\n")
    // a command's own check has its own code (usage-errors-coded runs them all), no longer cli.usage with English words
    expect(rating).toMatchObject({ message_code: 'cli.rating_range', params: { value: '7' } })
    expect(zh(rating)).toBe('RATING 必须是 0 到 1 之间的数（收到的是“7”）')
  })
})

/**
 * The CLI's language switch: `--lang zh|en` (anywhere before a `--`, before or after the command's name) or
 * SKILLBENCH_LANG words the error lines and coded progress lines on stderr by their code with the shared zh table;
 * English stays the default (the locale is not followed), and --json, stdout and exit codes never change. Real runs
 * through the CLI's entry on a copy of the fixture library, and one through bin/skillbench.cjs as its own process.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli, snapshot } from '../formats/helpers'
import { copyTree, FIXTURE_LIBRARY } from '../store/helpers'
import { langOption } from '../../src/main/cli/lang'
import { ERRORS_ZH } from '../../src/shared/error-codes-zh'
import { ERRORS_ZH as RENDERER_ZH } from '../../src/renderer/i18n/messages-errors'

let dir: string

beforeEach(() => {
  dir = copyTree(FIXTURE_LIBRARY)
})

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

const BASE_ENV: NodeJS.ProcessEnv = { LANG: 'zh_CN.UTF-8', LC_ALL: 'zh_CN.UTF-8' }
const run = (argv: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> => runCli(argv, dir, { ...BASE_ENV, ...env })

const NO_SKILL_ZH = 'skillbench rate: 没有 id 为 99999 的在用技能\n'
const NO_SKILL_EN = 'skillbench rate: no active skill with id 99999\n'

describe('--lang and SKILLBENCH_LANG', () => {
  it('an unknown skill id for rate: in Chinese with --lang zh (after or before the command), English by default even under a Chinese locale', async () => {
    expect(await run(['rate', '99999', '0.5', '--library', dir])).toEqual({ code: 1, stdout: '', stderr: NO_SKILL_EN })
    expect(await run(['rate', '99999', '0.5', '--library', dir, '--lang', 'zh'])).toEqual({ code: 1, stdout: '', stderr: NO_SKILL_ZH })
    expect(await run(['--lang', 'zh', 'rate', '99999', '0.5', '--library', dir])).toEqual({ code: 1, stdout: '', stderr: NO_SKILL_ZH })
    expect(await run(['rate', '--lang=zh', '99999', '0.5', '--library', dir])).toEqual({ code: 1, stdout: '', stderr: NO_SKILL_ZH })
    expect(await run(['rate', '99999', '0.5', '--library', dir, '--lang', 'en'])).toEqual({ code: 1, stdout: '', stderr: NO_SKILL_EN })
  })

  it('SKILLBENCH_LANG=zh says the same; --lang en wins over it', async () => {
    expect(await run(['rate', '99999', '0.5', '--library', dir], { SKILLBENCH_LANG: 'zh' })).toEqual({ code: 1, stdout: '', stderr: NO_SKILL_ZH })
    expect(await run(['rate', '99999', '0.5', '--library', dir, '--lang', 'en'], { SKILLBENCH_LANG: 'zh' })).toEqual({ code: 1, stdout: '', stderr: NO_SKILL_EN })
  })

  it('bad usage in Chinese: an option typo and an unknown command, exit 2 as in English', async () => {
    expect(await run(['list', '--libary', dir, '--lang', 'zh'])).toEqual({ code: 2, stdout: '', stderr: 'skillbench list: 未知的选项 --libary：是不是想用 --library？（见 --help）\n' })
    expect(await run(['list', '--libary', dir], { SKILLBENCH_LANG: 'zh' })).toEqual({ code: 2, stdout: '', stderr: 'skillbench list: 未知的选项 --libary：是不是想用 --library？（见 --help）\n' })
    expect(await run(['lst', '--lang', 'zh'])).toEqual({ code: 2, stdout: '', stderr: 'skillbench: 未知的命令“lst”：是不是想用 list？（见 skillbench --help）\n' })
    expect(await run(['list', '--lang', 'zh'])).toEqual({ code: 2, stdout: '', stderr: 'skillbench list: 请指定技能库：--library DIR，或 --root-dir DIR --user NAME\n' })
  })

  it('--json is the same under zh (English message, its code and params), as are stdout and the exit code; stderr is Chinese', async () => {
    for (const argv of [
      ['rate', '99999', '0.5', '--library', dir, '--json'],
      ['list', '--libary', dir, '--json'],
      ['list', '--library', dir, '--json']
    ]) {
      const en = await run(argv)
      const zh = await run([...argv, '--lang', 'zh'])
      const zhEnv = await run(argv, { SKILLBENCH_LANG: 'zh' })
      expect(zh.code, argv.join(' ')).toBe(en.code)
      expect(zh.stdout, argv.join(' ')).toBe(en.stdout)
      expect(zhEnv.stdout).toBe(en.stdout)
      expect(zhEnv.code).toBe(en.code)
    }
    const zh = await run(['rate', '99999', '0.5', '--library', dir, '--json', '--lang', 'zh'])
    expect(zh.stderr).toBe(NO_SKILL_ZH)
    expect(JSON.parse(zh.stdout)).toMatchObject({ status: 'error', message: 'no active skill with id 99999', message_code: 'skill.no_active_id', params: { id: '99999' } })
    // a success's stdout (a table scripts read) is the same bytes
    const listed = await run(['list', '--library', dir, '--lang', 'zh'])
    expect(listed).toEqual(await run(['list', '--library', dir]))
  })

  it('a coded hint on stderr in Chinese, stdout as in English (an empty folder listed)', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-lang-empty-'))
    try {
      const en = await run(['list', '--library', empty])
      const zh = await run(['list', '--library', empty, '--lang', 'zh'])
      expect(zh.code).toBe(en.code)
      expect(zh.stdout).toBe(en.stdout)
      expect(en.stderr).toBe(`skillbench list: no skills in ${empty}: a library holds skill_*.md files (AGIAgent) or SKILL.md folders\n`)
      expect(zh.stderr).toBe(`skillbench list: ${empty} 中没有技能：技能库应包含 skill_*.md 文件（AGIAgent）或 SKILL.md 文件夹\n`)
    } finally {
      fs.rmSync(empty, { recursive: true, force: true })
    }
  })

  it('an unknown --lang value is a coded usage error (exit 2, JSON with --json); a missing value too', async () => {
    const before = snapshot(dir)
    expect(await run(['rate', '99999', '0.5', '--library', dir, '--lang', 'fr'])).toEqual({ code: 2, stdout: '', stderr: 'skillbench rate: unknown language for --lang: fr (give zh or en)\n' })
    const json = await run(['list', '--library', dir, '--lang=jp', '--json'])
    expect(json.code).toBe(2)
    expect(json.stderr).toBe('skillbench list: unknown language for --lang: jp (give zh or en)\n')
    expect(JSON.parse(json.stdout)).toEqual({ status: 'error', message: 'unknown language for --lang: jp (give zh or en)', code: 'usage', message_code: 'cli.unknown_lang', params: { value: 'jp' } })
    // said in SKILLBENCH_LANG's language when that one is good
    expect((await run(['--lang', 'fr', 'list'], { SKILLBENCH_LANG: 'zh' })).stderr).toBe('skillbench list: --lang 的语言未知：fr（请用 zh 或 en）\n')
    const missing = await run(['list', '--library', dir, '--json', '--lang'])
    expect(missing.code).toBe(2)
    expect(JSON.parse(missing.stdout)).toMatchObject({ message_code: 'cli.needs_value', params: { option: '--lang' } })
    expect(snapshot(dir)).toEqual(before)
  })

  it('a SKILLBENCH_LANG that is no language: one warning line, the command runs in English', async () => {
    const r = await run(['rate', '99999', '0.5', '--library', dir], { SKILLBENCH_LANG: 'fr' })
    expect(r).toEqual({ code: 1, stdout: '', stderr: `skillbench: SKILLBENCH_LANG=fr is not a language of the CLI (zh or en): English is used\n${NO_SKILL_EN}` })
  })

  it("--help stays English and names --lang; a command's own --lang (mcp --print-prompt) still reaches it", async () => {
    const help = await run(['--lang', 'zh', '--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('Add --lang zh (or set SKILLBENCH_LANG=zh) for errors and progress on stderr in Chinese')
    expect(help.stdout).toContain('--help stays English')
    expect(help.stdout).toBe((await run(['--help'])).stdout)
    const prompt = await run(['mcp', '--print-prompt', '--lang', 'zh'])
    expect(prompt.code).toBe(0)
    expect(prompt.stdout).toContain('## 技能库')
    expect((await run(['mcp', '--print-prompt', '--lang=en'])).stdout).not.toContain('技能库')
  })

  it('one table: the renderer imports the shared Chinese table (one object), complete for the new codes', () => {
    expect(RENDERER_ZH).toBe(ERRORS_ZH)
    expect(ERRORS_ZH['cli.unknown_lang']).toContain('{value}')
  })

  it('langOption: takes --lang out wherever it is before a `--`, leaves it to a command that owns one', () => {
    expect(langOption(['--lang', 'zh', 'rate', '1', '0.5'], {})).toEqual({ argv: ['rate', '1', '0.5'], lang: 'zh' })
    expect(langOption(['query', '--', '--lang', 'zh'], {})).toEqual({ argv: ['query', '--', '--lang', 'zh'], lang: 'en' })
    expect(langOption(['list'], { SKILLBENCH_LANG: 'zh', LANG: 'en_US.UTF-8' }).lang).toBe('zh')
    expect(langOption(['list'], { LANG: 'zh_CN.UTF-8' }).lang).toBe('en')
    const owned = langOption(['memory', 'add-lesson', '--lang', 'zh'], {}, (c) => c === 'memory')
    expect(owned).toEqual({ argv: ['memory', 'add-lesson', '--lang', 'zh'], lang: 'zh' })
    // before the command's name it is only the CLI's language
    expect(langOption(['--lang=zh', 'memory', 'add-lesson'], {}, (c) => c === 'memory')).toEqual({ argv: ['memory', 'add-lesson'], lang: 'zh' })
    // a bad value of the command's own option is the command's to report
    expect(langOption(['memory', '--lang', 'fr'], {}, (c) => c === 'memory')).toEqual({ argv: ['memory', '--lang', 'fr'], lang: 'en' })
  })
})

describe('progress in Chinese', () => {
  const SAMPLE = path.resolve(__dirname, '..', '..', 'resources', 'sample-data')
  /** A copy of the sample data root; the run in it; stdout and stderr with the copy's path as ROOT. */
  async function inSample(argv: (root: string) => string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-lang-sample-'))
    const root = path.join(home, 'data')
    fs.cpSync(SAMPLE, root, { recursive: true })
    try {
      const r = await runCli(argv(root), root, { HOME: home, SKILLBENCH_CACHE_DIR: path.join(home, 'cache'), SKILLBENCH_SEARCH_SERVER: 'off', ...env })
      return { code: r.code, stdout: r.stdout.replaceAll(root, 'ROOT'), stderr: r.stderr.replaceAll(root, 'ROOT') }
    } finally {
      fs.rmSync(home, { recursive: true, force: true })
    }
  }

  it("reflect's task lines by their codes; the summary on stdout as in English", async () => {
    const argv = (root: string): string[] => ['reflect', '--root-dir', root, '--llm', 'offline']
    const en = await inSample(argv)
    const zh = await inSample((root) => [...argv(root), '--lang', 'zh'])
    expect(zh.code).toBe(en.code)
    expect(zh.stdout).toBe(en.stdout)
    const lines = zh.stderr.trimEnd().split('\n')
    expect(lines[0]).toBe('找到 5 个待处理的任务')
    expect(en.stderr.split('\n')[0]).toBe('Found 5 tasks to process')
    expect(lines[1]).toBe('[1/5] 正在处理 output_20261104_160000…')
    expect(lines[2]).toMatch(/^✅ 已生成技能：ROOT\/alice\/general\/experience\/skill_/)
    // the line and its reason, each by its code
    expect(lines.at(-1)).toBe('[5/5] 跳过 output_20261103_110000（不生成技能：未完成：完成后会再反思）')
    expect(en.stderr).toContain('[5/5] Skipping output_20261103_110000 (No skill: unfinished)')
  })

  it("reflect --decide: the seed's reports print as in English, only the coded lines around them are worded in Chinese", async () => {
    // the reports are content (in the task's language), not the CLI's words: a Chinese run that dropped them for
    // the coded line alone said less than an English one
    const argv = (root: string): string[] => ['reflect', '--root-dir', root, '--llm', 'offline', '--decide']
    const en = await inSample(argv)
    const zh = await inSample((root) => [...argv(root), '--lang', 'zh'])
    expect(zh.code).toBe(en.code)
    expect(zh.stdout).toBe(en.stdout)
    const reports = (stderr: string): string[] => stderr.split('\n').filter((l) => /^(Skill enhancement done:|- | {2}- )/.test(l))
    expect(reports(en.stderr)).toContain('- Operation: enhance skill')
    expect(reports(en.stderr).length).toBeGreaterThan(10)
    expect(reports(zh.stderr)).toEqual(reports(en.stderr))
    // a created skill: its line by code, its report after it
    expect(zh.stderr).toMatch(/\n✅ 已生成技能：ROOT\/alice\/general\/experience\/skill_[^\n]*\nSkill enhancement done:\n- Operation: new skill\n/)
    expect(zh.stderr).not.toContain('Skill generated:')
  })

  it("curate's progress lines by their codes (SKILLBENCH_LANG=zh); the proposals on stdout as in English", async () => {
    const argv = (root: string): string[] => ['curate', '--library', path.join(root, 'alice', 'general', 'experience')]
    const en = await inSample(argv)
    const zh = await inSample(argv, { SKILLBENCH_LANG: 'zh' })
    expect(zh.code).toBe(en.code)
    expect(zh.stdout).toBe(en.stdout)
    expect(en.stderr).toContain('Loaded 4 skills')
    expect(zh.stderr).toContain('已加载 4 个技能\n第 1 步：合并相似技能…\n')
    expect(zh.stderr).toContain('  正在读取技能 1/4 · ')
    expect(zh.stderr).not.toContain('Loaded 4 skills')
    expect(en.stderr).toContain("Reading the agents' logs for real usage...\nRead 5 task(s) from 2 source(s)\n")
    expect(zh.stderr).toContain('正在读取智能体日志，查看技能的真实使用情况…\n已从 2 个来源读取 5 个任务\n')
    expect(zh.stderr).not.toMatch(/Read \d+ task/)
  })
})

describe('as its own process', () => {
  it('bin/skillbench.cjs --lang zh: the Chinese table loads in a real process', () => {
    const bin = path.resolve(__dirname, '..', '..', 'bin', 'skillbench.cjs')
    const r = spawnSync(process.execPath, [bin, '--lang', 'zh', 'rate', '99999', '0.5', '--library', dir], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, NODE_OPTIONS: '', SKILLBENCH_FROM_SOURCE: '1', SKILLBENCH_LANG: '' }
    })
    expect({ code: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 1, stdout: '', stderr: NO_SKILL_ZH })
  }, 60_000)
})

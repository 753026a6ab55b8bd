/**
 * The CLI's own stderr lines that were plain English strings (import's "no skills found", sync --init's "now a git
 * repository", hooks --print's notes, reflect --hook's reasons to skip, curate's cluster headline, …) have codes:
 * `--lang zh` says them in Chinese, English says the same bytes as before. Real runs through the CLI's entry, and a
 * scan of src/main/cli that fails on a new plain English string literal written to stderr.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli } from '../formats/helpers'
import { makeTeam, type Team } from '../sync/team'
import { curateProgressReporter } from '../../src/main/cli/curate-progress'
import { wordsFor } from '../../src/main/cli/lang'
import { codedLine } from '../../src/shared/error-codes'

const dirs: string[] = []
const teams: Team[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
  for (const t of teams.splice(0)) t.cleanup()
})

function temp(tag: string): string {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `sb-plain-${tag}-`)))
  dirs.push(d)
  return d
}

/** A config folder whose settings.json has the auto-enhance switch on or off (none at all: `undefined`). */
function configDir(autoEnhance: boolean | undefined): string {
  const config = temp('config')
  if (autoEnhance !== undefined) fs.writeFileSync(path.join(config, 'settings.json'), JSON.stringify({ version: 1, settings: { autoEnhance } }))
  return config
}

describe('plain lines, now coded: Chinese with --lang zh, the same English bytes without', () => {
  it('import: no skills found (auto and a named format)', async () => {
    const empty = temp('empty-src')
    const lib = temp('lib')
    const en = await runCli(['import', '--from', empty, '--library', lib], lib, {})
    expect(en).toEqual({
      code: 1,
      stdout: '',
      stderr: `skillbench import: no skills found in ${empty} (looked for SKILL.md folders, skill_*.md files, *_config.yaml configs or learned-skill .yaml files); nothing was imported\n`
    })
    const zh = await runCli(['import', '--from', empty, '--library', lib, '--lang', 'zh'], lib, {})
    expect(zh).toEqual({
      code: 1,
      stdout: '',
      stderr: `skillbench import: 在 ${empty} 中没有找到技能（查找了 SKILL.md 文件夹、skill_*.md 文件、*_config.yaml 配置和 learned-skill .yaml 文件）；没有导入任何内容\n`
    })
    expect((await runCli(['import', '--from', empty, '--format', 'skill-md', '--library', lib], lib, {})).stderr).toBe(
      `skillbench import: no skills found in ${empty} (looked for skill-md skills); nothing was imported\n`
    )
    expect((await runCli(['import', '--from', empty, '--format', 'skill-md', '--library', lib], lib, { SKILLBENCH_LANG: 'zh' })).stderr).toBe(
      `skillbench import: 在 ${empty} 中没有找到技能（查找了 skill-md 格式的技能）；没有导入任何内容\n`
    )
  })

  it('hooks --print: the notes beside the printed configuration; stdout the same', async () => {
    const lib = temp('lib')
    const config = configDir(undefined)
    const env = { SKILLBENCH_CONFIG_DIR: config }
    const file = path.join(config, 'settings.json')
    const en = await runCli(['hooks', '--print', 'codex', '--library', lib], lib, env)
    const zh = await runCli(['hooks', '--print', 'codex', '--library', lib, '--lang', 'zh'], lib, env)
    expect(en.code).toBe(0)
    expect(zh.code).toBe(0)
    expect(zh.stdout).toBe(en.stdout)
    expect(en.stderr).toBe(
      'Put this line into ~/.codex/config.toml, above the first [table] (Codex allows one notify program).\n' +
        'Codex runs it after each turn with the turn as JSON; that session is reflected once it is finished.\n' +
        `Auto-enhance is OFF (${file}, not created yet): the hook skips every session, at no cost, until you turn it on in Skillbench → Settings → Auto-enhance.\n` +
        'No model is called (offline reflection): it costs no tokens. For model-written skills, print it again with --llm openai --model M.\n'
    )
    expect(zh.stderr).toBe(
      '把这一行放进 ~/.codex/config.toml，放在第一个 [table] 之前（Codex 只允许一个 notify 程序）。\n' +
        'Codex 每轮结束后都会运行它，并以 JSON 传入这一轮；会话结束后才会被反思。\n' +
        `自动增强已关闭（${file}，尚未创建）：在你于 Skillbench → 设置 → 自动增强中开启之前，钩子会跳过每个会话，不产生任何费用。\n` +
        '不调用任何模型（离线反思）：不消耗 token。如需由模型撰写技能，请加上 --llm openai --model M 重新生成。\n'
    )
    const cost = await runCli(['hooks', '--print', 'claude', '--library', lib, '--llm', 'openai', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm1'], lib, { SKILLBENCH_CONFIG_DIR: configDir(true) })
    expect(cost.stderr).toContain(
      "⚠️  Cost: each finished task is sent to m1 at http://127.0.0.1:9/v1 — up to 24,000 characters (about 6,000 tokens) plus the answer, on every session while auto-enhance is on. These are extra tokens you pay for. The key is read from OPENAI_API_KEY in the agent's environment.\n"
    )
  })

  it('reflect --hook: why a hook call reflects nothing (the switch off, a notification of another kind, no rollout)', async () => {
    const lib = temp('lib')
    const off = configDir(false)
    const file = path.join(off, 'settings.json')
    const argv = (note: string): string[] => ['reflect', '--hook', 'codex', '--library', lib, '--decide', '--codex-dir', lib, note]
    const turn = JSON.stringify({ type: 'agent-turn-complete', 'thread-id': '019e1695-0522-7c83-8b39-0dd379793f80' })
    expect(await runCli(argv(turn), lib, { SKILLBENCH_CONFIG_DIR: off })).toEqual({
      code: 0,
      stdout: '',
      stderr: `Auto-enhance is off (${file}): the session was not reflected. Turn it on in Skillbench → Settings → Auto-enhance.\n`
    })
    expect(await runCli([...argv(turn), '--lang', 'zh'], lib, { SKILLBENCH_CONFIG_DIR: off })).toEqual({
      code: 0,
      stdout: '',
      stderr: `自动增强已关闭（${file}）：该会话未被反思。请在 Skillbench → 设置 → 自动增强中开启。\n`
    })
    const on = { SKILLBENCH_CONFIG_DIR: configDir(true) }
    const other = JSON.stringify({ type: 'approval-requested' })
    expect(await runCli(argv(other), lib, on)).toEqual({ code: 0, stdout: '', stderr: 'notification "approval-requested" is not agent-turn-complete: nothing to reflect\n' })
    expect(await runCli(['--lang', 'zh', ...argv(other)], lib, on)).toEqual({ code: 0, stdout: '', stderr: '通知 "approval-requested" 不是 agent-turn-complete：没有可反思的内容\n' })
    expect(await runCli(argv(turn), lib, on)).toEqual({ code: 1, stdout: '', stderr: `no Codex rollout of thread 019e1695-0522-7c83-8b39-0dd379793f80 under ${lib}\n` })
    expect(await runCli(argv(turn), lib, { ...on, SKILLBENCH_LANG: 'zh' })).toEqual({ code: 1, stdout: '', stderr: `${lib} 下没有线程 019e1695-0522-7c83-8b39-0dd379793f80 的 Codex rollout 文件\n` })
  })

  it('sync --init: "now a git repository" in Chinese; the summary on stdout as in English', { timeout: 60_000 }, async () => {
    const ask = async (lang: string[]): Promise<{ code: number; stdout: string; stderr: string; url: string }> => {
      const team = makeTeam('sb-plain-sync-')
      teams.push(team)
      const m = team.machine('alice')
      return { ...(await runCli(['sync', '--init', team.url, '--library', m.lib, ...lang], m.lib, m.env)), url: team.url }
    }
    const en = await ask([])
    const zh = await ask(['--lang', 'zh'])
    expect(en.code).toBe(0)
    expect(zh.code).toBe(0)
    expect(en.stderr.split('\n')[0]).toBe(`The library is now a git repository on branch main, sharing with ${en.url}.`)
    expect(zh.stderr.split('\n')[0]).toBe(`技能库现在是一个 git 仓库，分支为 main，与 ${zh.url} 共享。`)
    expect(zh.stdout.replace(/now at [0-9a-f]{12}/, '')).toBe(en.stdout.replace(/now at [0-9a-f]{12}/, ''))
  })

  it('use: a rejected trigger pattern, the line and its reason', async () => {
    const dir = path.join(temp('use'), 'skills')
    fs.mkdirSync(dir)
    fs.writeFileSync(path.join(dir, 'evil.yaml'), 'id: s_evil\nname: Evil\ndescription: Evil\ntrigger_pattern: "^(a+)+$"\nsteps: []\n')
    const en = await runCli(['use', 'how do I login?', '--dir', dir], dir, {})
    const zh = await runCli(['use', 'how do I login?', '--dir', dir, '--lang', 'zh'], dir, {})
    expect(zh.stdout).toBe(en.stdout)
    expect(en.stderr).toBe('skillbench use: evil.yaml: trigger_pattern "^(a+)+$" rejected: nested quantifier: the group "(a+)" repeats something that already repeats (catastrophic backtracking)\n')
    expect(zh.stderr).toBe('skillbench use: evil.yaml：trigger_pattern "^(a+)+$" 被拒绝：嵌套量词：分组“(a+)”重复了本身已在重复的内容（灾难性回溯）\n')
  })

  it("curate's cluster headline (a log, not a terminal)", async () => {
    const lines = async (lang: 'en' | 'zh'): Promise<string> => {
      let out = ''
      const words = await wordsFor(lang)
      const report = curateProgressReporter({ isTTY: false, write: (t) => void (out += t), ...(words ? { words } : {}) })
      report({ step: 2, ...codedLine('curate.consolidating'), done: 0, total: 2, skill: 'A + B' })
      return out
    }
    expect(await lines('en')).toBe('  [1/2] consolidating · A + B\n')
    expect(await lines('zh')).toBe('  [1/2] 正在归并 · A + B\n')
  })
})

/**
 * Lines that may stay as they are: a developer's traces (under SKILLBENCH_CURATE_TRACE / SKILLBENCH_SEARCH_TRACE) and
 * the log lines of the long-running servers (`mcp`, `search-server`), whose prefix names the process. File and the
 * literal words each allowed line has.
 */
const ALLOWED: ReadonlyArray<[file: string, words: string]> = [
  ['commands/curate.ts', '[+ ms] '],
  ['commands/curate.ts', 'worker warmed early: \\n'],
  ['commands/curate.ts', 'plan built and saved\\n'],
  ['commands/curate.ts', 'stems saved\\n'],
  ['daemon-answer.ts', '[search] \\n'],
  ['commands/mcp.ts', '[skillbench mcp] \\n']
]

/** The call sites that write to stderr: the CLI's io, a progress writer, the process's own stream. */
const SINK = /\b(?:io\.stderr|stderr|opts\.write|hooks\.write|process\.stderr\.write)\(/g

/**
 * Walks source text from `from`, keeping track of quotes, brackets and a template's `${…}` (good enough for our
 * sources): hands `literal` each character (an escape whole) of a string standing at the walk's own bracket depth,
 * and stops at a bracket that closes that depth. Returns where it stopped (text.length when it did not).
 */
function walkSource(text: string, from: number, literal?: (piece: string) => void): number {
  let depth = 0
  let quote: string | null = null
  const templates: number[] = [] // brace depth at which each open template's `${` started
  for (let i = from; i < text.length; i++) {
    const c = text[i]!
    if (quote) {
      if (c === '\\') {
        if (depth === 0) literal?.(text.slice(i, i + 2))
        i++
      } else if (quote === '`' && c === '$' && text[i + 1] === '{') {
        templates.push(depth)
        depth++
        quote = null
        i++
      } else if (c === quote) quote = null
      else if (depth === 0) literal?.(c)
      continue
    }
    if (c === "'" || c === '"' || c === '`') quote = c
    else if (c === '(' || c === '[' || c === '{') depth++
    else if (c === ')' || c === ']' || c === '}') {
      depth--
      if (c === '}' && templates.length > 0 && templates.at(-1) === depth) {
        templates.pop()
        quote = '`'
      } else if (depth < 0) return i
    }
  }
  return text.length
}

/** The argument text of a call whose `(` is at `open` ('' when it never closes). */
function argumentAt(text: string, open: number): string {
  const end = walkSource(text, open + 1)
  return end < text.length ? text.slice(open + 1, end) : ''
}

/** The literal words of an argument outside any call inside it (`${…}` left out): what the line says as written. */
function literalWords(arg: string): string {
  let out = ''
  walkSource(arg, 0, (piece) => (out += piece))
  return out
}

/** English in a line's literal words: a word of two letters or more, once the escapes and the `skillbench <command>:` lead are left out. */
function saysEnglish(words: string): boolean {
  const bare = words
    .replace(/\\u[0-9a-fA-F]{4}\[2K|\\[nrt]/g, ' ')
    .replace(/^\s*skillbench(?: [a-z-]*)?(?: --hook)?: /, '')
  return /[A-Za-z]{2,}/.test(bare)
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    return e.isDirectory() ? sourceFiles(p) : e.name.endsWith('.ts') ? [p] : []
  })
}

describe('stderr in src/main/cli', () => {
  const CLI = path.resolve(__dirname, '..', '..', 'src', 'main', 'cli')

  it('the scan finds plain English and passes coded lines, prefixes and escapes', () => {
    const at = (code: string): string => literalWords(argumentAt(code, code.indexOf('(')))
    expect(saysEnglish(at("io.stderr('skillbench install: nothing was installed\\n')"))).toBe(true)
    expect(saysEnglish(at('io.stderr(`Watching ${library} for script changes (Ctrl-C to stop)\\n`)'))).toBe(true)
    expect(saysEnglish(at("io.stderr(ok ? 'Done' : `${x}`)"))).toBe(true)
    expect(saysEnglish(at("io.stderr(`skillbench install: ${say(io, coded('install.nothing_installed'))}\\n`)"))).toBe(false)
    expect(saysEnglish(at("io.stderr(`❌ ${p.id}: ${f(`a ${b} c`)}\\n`)"))).toBe(false)
    expect(saysEnglish(at("io.stderr(notes.map((n) => say(io, n)).join('\\n') + '\\n')"))).toBe(false)
    expect(saysEnglish(at("opts.write('\\r\\u001b[2K')"))).toBe(false)
  })

  it('has no plain English string literal written to stderr but the allowed ones (say it by a code: say(io, coded(…)))', () => {
    const found: string[] = []
    const allowed = new Set(ALLOWED.map(([file, words]) => `${file} ${words}`))
    const used = new Set<string>()
    for (const file of sourceFiles(CLI)) {
      const rel = path.relative(CLI, file).split(path.sep).join('/')
      const text = fs.readFileSync(file, 'utf8')
      for (const m of text.matchAll(SINK)) {
        const open = m.index + m[0].length - 1
        const words = literalWords(argumentAt(text, open))
        if (!saysEnglish(words)) continue
        const key = `${rel} ${words}`
        if (allowed.has(key)) used.add(key)
        else found.push(`${rel}:${text.slice(0, m.index).split('\n').length}: ${JSON.stringify(words)}`)
      }
    }
    expect(found).toEqual([])
    // an allowance whose line is gone goes too
    expect([...allowed].filter((k) => !used.has(k))).toEqual([])
  })
})

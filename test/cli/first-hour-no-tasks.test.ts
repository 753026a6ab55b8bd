/**
 * `scan` and `reflect` on a folder that yields no task used to say only "0 task(s)" / "Created 0 skill(s)", exit 0:
 * a library given as the data root, a folder of Claude Code sessions, a --user or --task typo. They now say why on
 * stderr (coded), the output and the exit code as they were. On a copy of the bundled sample data root.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../formats/helpers'
import { noTasksHint } from '../../src/main/cli/no-tasks-hint'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { hashTree, tempDir } from '../store/helpers'

const SAMPLE = path.resolve(__dirname, '..', '..', 'resources', 'sample-data')
let root: string

beforeEach(() => {
  root = path.join(tempDir('sb-first-hour-'), 'data')
  fs.cpSync(SAMPLE, root, { recursive: true })
})

afterEach(() => {
  fs.rmSync(path.dirname(root), { recursive: true, force: true })
})

/** The CLI in-process (test/formats/helpers runCli) with this file's folder and environment. */
function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { SKILLBENCH_CONFIG_DIR: path.join(path.dirname(root), 'config'), SKILLBENCH_CACHE_DIR: path.join(path.dirname(root), 'cache') }
  return runCli(argv, root, env)
}

const HINT = (dir: string): string =>
  `skillbench scan: no task folders in ${dir}: Skillbench reads <root>/<user>/output_YYYYMMDD_HHMMSS/logs/manager.out (or <root>/output_*/logs/). A skill library is read with \`skillbench list --library DIR\`; Claude Code, Codex or Synapse sessions with --claude-dir, --codex-dir or --synapse-dir\n`

describe('scan of a folder that is not a data root', () => {
  it('a library as --root-dir: the same table and JSON, exit 0, and on stderr the layout read and the command meant', async () => {
    const library = path.join(root, 'alice', 'general', 'experience')
    const r = await run('scan', '--root-dir', library, '--no-cache')
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(`Root: ${library}\n0 task(s), 0 skipped\n\n`)
    expect(r.stderr).toBe(HINT(library))
    const json = await run('scan', '--root-dir', library, '--no-cache', '--json')
    expect(JSON.parse(json.stdout)).toEqual({ root: library, tasks: [], skipped: [] })
    expect(json.stderr).toBe(HINT(library))
  })

  it('the data root itself scans with no hint', async () => {
    const r = await run('scan', '--root-dir', root, '--no-cache')
    expect(r.stdout).toContain('5 task(s), 0 skipped')
    expect(r.stderr).toBe('')
  })
})

describe('reflect that finds nothing', () => {
  it('a --user that is not there, a --task that names none: said, nothing written, exit 0; a library as the root: bad usage', async () => {
    const before = hashTree(root)
    const user = await run('reflect', '--root-dir', root, '--user', 'carol')
    expect(user.code).toBe(0)
    expect(user.stdout).toBe('Created 0 skill(s); skipped 0 already reflected; failed 0.\n')
    expect(user.stderr).toContain(`skillbench reflect: unknown user "carol" in ${root}\n`)
    const task = await run('reflect', '--root-dir', root, '--task', 'output_2026', '--json')
    expect(JSON.parse(task.stdout)).toEqual({ created: [], skipped: [], failed: [], cancelled: false })
    expect(task.stderr).toContain(`skillbench reflect: no task of ${root} matches --task output_2026 (\`skillbench scan --root-dir ${root}\` lists them)\n`)
    const library = path.join(root, 'alice', 'general', 'experience')
    // a skill library given as the root is bad usage now (exit 2, test/cli/wrong-folder), said before anything runs
    const lib = await run('reflect', '--root-dir', library)
    expect(lib.code).toBe(2)
    expect(lib.stdout).toBe('')
    expect(lib.stderr).toMatch(new RegExp(`^skillbench reflect: ${library.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} looks like a skill library`))
    expect(hashTree(root)).toEqual(before)
  })

  it('a user whose only task makes no skill gets no hint (the run says why itself)', async () => {
    const r = await run('reflect', '--root-dir', root, '--user', 'bob')
    expect(r.stdout).toContain('output_20261105_084500: no work done')
    expect(r.stderr).not.toContain('skillbench reflect:')
  })

  it('each hint has its Chinese', async () => {
    const bob = path.join(root, 'bob')
    fs.renameSync(path.join(bob, 'output_20261105_084500'), path.join(root, 'output_20261105_084500'))
    const zh = async (filter: { user?: string; tasks?: string[] }): Promise<string> => {
      const c = await noTasksHint(root, filter)
      return translateMessage(c, c.text, 'zh')
    }
    expect(await zh({ user: 'carol' })).toBe(`${root} 中没有用户“carol”`)
    expect(await zh({ user: 'bob' })).toBe(`用户“bob”在 ${root} 中没有任务文件夹（应为带 logs/ 的 output_YYYYMMDD_HHMMSS/）`)
    expect(await zh({ tasks: ['a', 'b'] })).toBe(`${root} 中没有与 --task a, b 匹配的任务（\`skillbench scan --root-dir ${root}\` 可列出全部任务）`)
    expect(await zh({})).toMatch(/中没有任务文件夹：Skillbench 读取 <root>\/<user>\/output_YYYYMMDD_HHMMSS\/logs\/manager\.out/)
  })
})

describe('no data root given', () => {
  it('scan and reflect say the default ./data was looked for and what to give; a root that was given is said as before', async () => {
    const data = path.join(root, 'data')
    const words = `no data root given, and the default ${data} does not exist: give --root-dir DIR (the folder holding <user>/output_*/logs/), or set gui_default_data_directory in config.txt`
    const scan = await run('scan', '--json')
    expect(scan.code).toBe(1)
    expect(scan.stderr).toBe(`skillbench scan: ${words}\n`)
    expect(JSON.parse(scan.stdout)).toEqual({ status: 'error', message: words, message_code: 'scan.default_root_not_found', params: { root: data } })
    const reflect = await run('reflect')
    expect(reflect.code).toBe(1)
    expect(reflect.stderr).toBe(`skillbench reflect: ${words}\n`)
    const named = await run('scan', '--root-dir', 'data')
    expect(named.stderr).toBe(`skillbench scan: data root not found: ${data}\n`)
    const c = await noTasksHint(root)
    expect(translateMessage({ messageCode: 'scan.default_root_not_found', params: { root: data } }, c.text, 'zh')).toBe(
      `未指定数据根目录，默认的 ${data} 不存在：请用 --root-dir DIR 指定（包含 <user>/output_*/logs/ 的文件夹），或在 config.txt 中设置 gui_default_data_directory`
    )
  })

  it('reflect --library without a session source is bad usage, saying where an AGIAgent root\'s skills go (it looked for ./data)', async () => {
    const before = hashTree(root)
    const r = await run('reflect', '--library', path.join(root, 'alice', 'general', 'experience'))
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(
      'skillbench reflect: --library goes with a session source (--claude-dir, --codex-dir, --synapse-dir or --hook); an AGIAgent data root is --root-dir DIR, its skills going to DIR/<user>/general/experience\n'
    )
    expect(hashTree(root)).toEqual(before)
  })
})

/**
 * The sample data bundled with Skillbench (the install's resources/sample-data) is never written by a command: a
 * newcomer's `skillbench query … --library resources/sample-data/alice/general/experience` used to raise three
 * skills' fetch_count, set their last_used_at and create .skillbench/usage.jsonl in the checkout. Now a query answers
 * without counting the use (a coded line on stderr naming the writable copy), and every command that may write is
 * refused (exit 2, coded) with the path of the writable copy `<settings>/sample-data/…`. Run through the real CLI
 * (node bin/skillbench.cjs) on a temporary folder laid out like an install (SKILLBENCH_RESOURCES_DIR), and once on
 * the repository's own resources/sample-data, whose files' bytes and times must not move.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

const ROOT = path.resolve(__dirname, '..', '..')
const BIN = path.join(ROOT, 'bin', 'skillbench.cjs')
const REAL_SAMPLE = path.join(ROOT, 'resources', 'sample-data')

let dir: string
let install: string
let sample: string
let config: string
let env: NodeJS.ProcessEnv

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-sample-')))
  install = path.join(dir, 'install', 'resources')
  sample = path.join(install, 'sample-data')
  fs.mkdirSync(install, { recursive: true })
  fs.cpSync(REAL_SAMPLE, sample, { recursive: true })
  config = path.join(dir, 'config')
  env = { SKILLBENCH_RESOURCES_DIR: install, SKILLBENCH_CONFIG_DIR: config, SKILLBENCH_CACHE_DIR: path.join(dir, 'cache'), SKILLBENCH_SEARCH_SERVER: 'off' }
})

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

/** `node bin/skillbench.cjs …` in `cwd`, as a person at a shell would run it (pipes, no terminal). */
function cli(args: string[], extra: NodeJS.ProcessEnv = {}, cwd = dir): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, NODE_OPTIONS: '', SKILLBENCH_LANG: '', ...env, ...extra }
  })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** Every entry under a folder: a file's bytes and modification time, a folder's name (for "nothing moved"). */
function state(root: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name)
      const rel = path.relative(root, p)
      if (e.isDirectory()) {
        out[rel + '/'] = String(fs.statSync(p).mtimeMs)
        walk(p)
      } else out[rel] = `${fs.statSync(p).mtimeMs} ${fs.readFileSync(p).toString('base64')}`
    }
  }
  walk(root)
  return out
}

describe('the bundled sample data is never written', () => {
  it('query answers, is not counted, and says so with the writable copy (--json too, --lang zh too)', () => {
    const lib = path.join(sample, 'alice', 'general', 'experience')
    const before = state(sample)
    const copy = path.join(config, 'sample-data', 'alice', 'general', 'experience')
    const plain = cli(['query', 'python calculator tests', '--library', lib, '--no-server'])
    expect(plain.code, plain.stderr).toBe(0)
    expect(plain.stdout).toContain('1792400000')
    expect(plain.stderr).toBe(
      `skillbench query: not counted as a use: ${lib} is in the sample data bundled with Skillbench, which no command changes (its writable copy: ${copy}, which \`npm start\` makes on a first run)\n`
    )
    const json = cli(['query', 'python calculator tests', '--library', lib, '--json'])
    expect(json.code).toBe(0)
    expect((JSON.parse(json.stdout) as { status: string }).status).toBe('success')
    const zh = cli(['query', 'python calculator tests', '--root-dir', sample, '--user', 'alice', '--lang', 'zh'])
    expect(zh.code).toBe(0)
    expect(zh.stderr).toContain(`skillbench query: 未计为一次使用：${lib} 位于安装自带的示例数据中`)
    expect(state(sample)).toEqual(before)
    expect(fs.existsSync(path.join(lib, '.skillbench'))).toBe(false)
    // --no-touch asked for no use: nothing to say
    const asked = cli(['query', 'python calculator tests', '--library', lib, '--no-touch'])
    expect(asked.code).toBe(0)
    expect(asked.stderr).toBe('')
  })

  it('a command that may write there is refused (exit 2, coded), naming the writable copy; a link to it too', () => {
    const lib = path.join(sample, 'alice', 'general', 'experience')
    const link = path.join(dir, 'linked-lib')
    fs.symlinkSync(lib, link)
    const workspace = path.join(sample, 'alice', 'output_20261101_093000')
    const before = state(sample)
    const copy = path.join(config, 'sample-data', 'alice', 'general', 'experience')
    const cases: [string[], string, string][] = [
      [['rate', '1792400000', '0.9', '--library', lib], lib, copy],
      [['rate', '1792400000', '0.9', '--library', link], link, copy],
      [['edit', '1792400000', '--mode', 'append', '--text', 'more', '--library', lib], lib, copy],
      [['delete', '1792400000', '--root-dir', sample, '--user', 'alice'], sample, path.join(config, 'sample-data')],
      [['copy-files', '1792400000', 'calc.py', '--workspace', path.join(dir, 'ws'), '--library', lib], lib, copy],
      [['curate', '--library', lib], lib, copy],
      [['curate', '--library', lib, '--apply'], lib, copy],
      [['reflect', '--root-dir', sample], sample, path.join(config, 'sample-data')],
      [['reflect', '--root-dir', path.join(dir, 'elsewhere'), '--evolve-memory', path.join(sample, 'alice')], path.join(sample, 'alice'), path.join(config, 'sample-data', 'alice')],
      [['restore', '1792400000', '--library', lib], lib, copy],
      [['import', '--from', path.join(dir, 'nothing'), '--library', lib], lib, copy],
      [['memory', 'add-lesson', '--text', 'a lesson', '--workspace', workspace], workspace, path.join(config, 'sample-data', 'alice', 'output_20261101_093000')],
      [['mcp', '--library', lib], lib, copy],
      [['serve', '--no-open', '--root-dir', sample], sample, path.join(config, 'sample-data')],
      [['export', '--to', 'skill-md', '--library', path.join(dir, 'lib'), '--out', path.join(sample, 'out')], path.join(sample, 'out'), path.join(config, 'sample-data', 'out')]
    ]
    for (const [args, named, writable] of cases) {
      const r = cli([...args, '--json'])
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2)
      expect(r.stderr, args.join(' ')).toBe(
        `skillbench ${args[0]}: ${named} is in the sample data bundled with Skillbench, which no command changes: use its writable copy ${writable} (\`npm start\` makes it on a first run, or copy ${sample} there)\n`
      )
      if (args[0] !== 'serve' && args[0] !== 'mcp') {
        expect(JSON.parse(r.stdout), args.join(' ')).toMatchObject({ status: 'error', code: 'usage', message_code: 'cli.bundled_sample_read_only', params: { path: named, copy: writable, sample } })
      }
    }
    const zh = cli(['rate', '1792400000', '0.9', '--library', lib, '--lang', 'zh'])
    expect(zh.code).toBe(2)
    expect(zh.stderr).toBe(`skillbench rate: ${lib} 位于安装自带的示例数据中，任何命令都不会修改它：请改用它的可写副本 ${copy}（\`npm start\` 首次运行时会创建，也可以把 ${sample} 复制到那里）\n`)
    expect(state(sample)).toEqual(before)
    expect(fs.existsSync(path.join(lib, '.skillbench'))).toBe(false)
    // the copy it names is the one to work on
    fs.cpSync(sample, path.join(config, 'sample-data'), { recursive: true })
    const rated = cli(['rate', '1792400000', '0.9', '--library', copy])
    expect(rated.code, rated.stderr).toBe(0)
    expect(fs.readFileSync(path.join(copy, 'skill_Python command-line calc.md'), 'utf8')).toContain('quality_index: 0.704')
  })

  it("the repository's own resources/sample-data: query and list leave every byte and time as they were", () => {
    const lib = path.join(REAL_SAMPLE, 'alice', 'general', 'experience')
    const before = state(REAL_SAMPLE)
    const { SKILLBENCH_RESOURCES_DIR: _, ...noResources } = env
    env = noResources
    const r = cli(['query', 'python calculator tests', '--library', lib, '--no-server'], {}, ROOT)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('skillbench query: not counted as a use: ')
    expect(cli(['list', '--library', lib], {}, ROOT).code).toBe(0)
    expect(cli(['rate', '1792400000', '0.9', '--library', lib], {}, ROOT).code).toBe(2)
    expect(state(REAL_SAMPLE)).toEqual(before)
    expect(fs.existsSync(path.join(lib, '.skillbench'))).toBe(false)
  })
})

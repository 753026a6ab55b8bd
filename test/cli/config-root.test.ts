/**
 * A data root named by config.txt (`gui_default_data_directory`, read by `reflect` and `scan` when no --root-dir is
 * given) is checked as --root-dir is, with the same codes, and the message says the root came from config.txt and
 * which file. Before, a config.txt naming the bundled sample data let `reflect` write its skills into it, and one
 * naming a folder that is not there was said as "no data root given, and the default … does not exist … or set
 * gui_default_data_directory in config.txt" (it was set). Through the real CLI (node bin/skillbench.cjs) in a project
 * folder with config/config.txt, on a temporary folder laid out like an install (SKILLBENCH_RESOURCES_DIR).
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

const ROOT = path.resolve(__dirname, '..', '..')
const BIN = path.join(ROOT, 'bin', 'skillbench.cjs')

let dir: string
let project: string
let configFile: string
let sample: string
let env: NodeJS.ProcessEnv

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-config-root-')))
  const install = path.join(dir, 'install', 'resources')
  sample = path.join(install, 'sample-data')
  fs.mkdirSync(install, { recursive: true })
  fs.cpSync(path.join(ROOT, 'resources', 'sample-data'), sample, { recursive: true })
  project = path.join(dir, 'project')
  configFile = path.join(project, 'config', 'config.txt')
  fs.mkdirSync(path.dirname(configFile), { recursive: true })
  env = { SKILLBENCH_RESOURCES_DIR: install, SKILLBENCH_CONFIG_DIR: path.join(dir, 'settings'), SKILLBENCH_CACHE_DIR: path.join(dir, 'cache'), SKILLBENCH_SEARCH_SERVER: 'off' }
})

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: project, encoding: 'utf8', timeout: 120_000, env: { ...process.env, NODE_OPTIONS: '', SKILLBENCH_LANG: '', ...env } })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** Every file under a folder: bytes and modification time. */
function state(root: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const rel of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    const st = fs.statSync(path.join(root, rel))
    out[rel] = st.isFile() ? `${st.mtimeMs} ${fs.readFileSync(path.join(root, rel)).toString('base64')}` : `${st.mtimeMs}/`
  }
  return out
}

const fromConfig = (root: string, file = configFile): string => `${root} (set by gui_default_data_directory in ${file})`

describe('a data root from config.txt is checked as --root-dir is', () => {
  it('a folder that is not there: scan.root_not_found (exit 1), naming config.txt, for reflect and scan, --json and --lang zh', () => {
    fs.writeFileSync(configFile, '# where AGIAgent writes\ngui_default_data_directory = ../gone   # moved\n')
    const gone = path.join(dir, 'gone')
    for (const command of ['reflect', 'scan']) {
      const plain = cli([command])
      expect(plain, command).toEqual({ code: 1, stdout: '', stderr: `skillbench ${command}: data root not found: ${fromConfig(gone)}\n` })
      const json = cli([command, '--json'])
      expect(json.code).toBe(1)
      expect(JSON.parse(json.stdout), command).toEqual({
        status: 'error',
        message: `data root not found: ${fromConfig(gone)}`,
        message_code: 'scan.root_not_found',
        params: { root: { messageCode: 'cli.root_from_config', params: { root: gone, file: configFile } } }
      })
      const zh = cli([command, '--lang', 'zh'])
      expect(zh.stderr, command).toBe(`skillbench ${command}: 找不到数据根目录：${gone}（由 ${configFile} 中的 gui_default_data_directory 指定）\n`)
    }
    // --config names the file: said the same way, with that file
    const other = path.join(dir, 'other.txt')
    fs.writeFileSync(other, `gui_default_data_directory=${path.join(dir, 'elsewhere')}\n`)
    expect(cli(['scan', '--config', other]).stderr).toBe(`skillbench scan: data root not found: ${fromConfig(path.join(dir, 'elsewhere'), other)}\n`)
    // --root-dir wins over config.txt, and is said as it always was
    expect(cli(['scan', '--root-dir', path.join(dir, 'given')]).stderr).toBe(`skillbench scan: data root not found: ${path.join(dir, 'given')}\n`)
  })

  it('a file, not a folder: scan.root_not_folder, naming config.txt', () => {
    fs.writeFileSync(path.join(dir, 'a-file'), 'x')
    fs.writeFileSync(configFile, `gui_default_data_directory=${path.join(dir, 'a-file')}\n`)
    expect(cli(['reflect'])).toEqual({ code: 1, stdout: '', stderr: `skillbench reflect: data root is not a folder: ${fromConfig(path.join(dir, 'a-file'))}\n` })
  })

  it('the bundled sample data: reflect is refused (cli.bundled_sample_read_only, exit 2) naming config.txt and the copy; scan reads it', () => {
    fs.writeFileSync(configFile, `gui_default_data_directory=${sample}\n`)
    const before = state(sample)
    const copy = path.join(dir, 'settings', 'sample-data')
    const r = cli(['reflect', '--json'])
    expect(r.code, r.stderr).toBe(2)
    expect(r.stderr).toBe(
      `skillbench reflect: ${fromConfig(sample)} is in the sample data bundled with Skillbench, which no command changes: use its writable copy ${copy} (\`npm start\` makes it on a first run, or copy ${sample} there)\n`
    )
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'error', code: 'usage', message_code: 'cli.bundled_sample_read_only', params: { path: { messageCode: 'cli.root_from_config', params: { root: sample, file: configFile } }, copy, sample } })
    const zh = cli(['reflect', '--lang', 'zh'])
    expect(zh.code).toBe(2)
    expect(zh.stderr).toBe(`skillbench reflect: ${sample}（由 ${configFile} 中的 gui_default_data_directory 指定） 位于安装自带的示例数据中，任何命令都不会修改它：请改用它的可写副本 ${copy}（\`npm start\` 首次运行时会创建，也可以把 ${sample} 复制到那里）\n`)
    const scan = cli(['scan', '--json'])
    expect(scan.code, scan.stderr).toBe(0)
    expect((JSON.parse(scan.stdout) as { tasks: unknown[] }).tasks.length).toBeGreaterThan(0)
    expect(state(sample)).toEqual(before)
    // its writable copy, named the same way, reflects
    fs.cpSync(sample, copy, { recursive: true })
    fs.writeFileSync(configFile, `gui_default_data_directory=${copy}\n`)
    const ok = cli(['reflect', '--user', 'alice', '--json'])
    expect(ok.code, ok.stderr).toBe(0)
    expect((JSON.parse(ok.stdout) as { created: unknown[] }).created.length).toBeGreaterThan(0)
  })

  it('no config.txt and no ./data: the default is said as before', () => {
    const r = cli(['scan'])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(`no data root given, and the default ${path.join(project, 'data')} does not exist`)
  })
})

/**
 * A wrong folder is said before anything runs, through the real CLI (node bin/skillbench.cjs):
 * - `serve --root-dir` a folder that is not there printed "Skillbench is running at http://…?token=…" and only then
 *   "folder not found" (exit 1): without --no-open a browser opened on a dead server. Now only the error.
 * - `reflect --root-dir` a skill library (not an agents' data root) found no task and exited 0: now bad usage (exit 2,
 *   `cli.root_is_library`), judged as the Workspaces screen judges such a root (scan/root-problem.ts).
 * - `reflect --help` describes --force, and no command's --help shows an internal "(seed 003)" tag.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../formats/helpers'
import { COMMANDS } from '../../src/main/cli/registry'

const ROOT = path.resolve(__dirname, '..', '..')
const BIN = path.join(ROOT, 'bin', 'skillbench.cjs')

let dir: string

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-wrong-')))
})

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, NODE_OPTIONS: '', SKILLBENCH_LANG: '', SKILLBENCH_CONFIG_DIR: path.join(dir, 'config'), SKILLBENCH_CACHE_DIR: path.join(dir, 'cache') }
  })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** Every file under a folder with its bytes. */
function files(root: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const rel of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    const p = path.join(root, rel)
    if (fs.statSync(p).isFile()) out[rel] = fs.readFileSync(p, 'base64')
  }
  return out
}

describe('serve: the root is checked before the server listens', () => {
  it('a folder that is not there, or a file: the error alone, no URL (exit 1)', () => {
    const gone = path.join(dir, 'nope')
    const missing = cli(['serve', '--port', '0', '--no-open', '--no-build', '--root-dir', gone])
    expect(missing).toEqual({ code: 1, stdout: '', stderr: `skillbench serve: folder not found: ${gone}\n` })
    const file = path.join(dir, 'a-file')
    fs.writeFileSync(file, 'x')
    const notFolder = cli(['serve', '--port', '0', '--no-open', '--no-build', '--root-dir', file])
    expect(notFolder).toEqual({ code: 1, stdout: '', stderr: `skillbench serve: not a folder: ${file}\n` })
    const zh = cli(['serve', '--port', '0', '--no-open', '--no-build', '--root-dir', gone, '--lang', 'zh'])
    expect(zh).toEqual({ code: 1, stdout: '', stderr: `skillbench serve: 找不到文件夹：${gone}\n` })
  })
})

describe('reflect --root-dir a skill library', () => {
  it('is bad usage (exit 2, coded, --json and --lang zh), the library unchanged; its data root still reflects', () => {
    const root = path.join(dir, 'data')
    fs.cpSync(path.join(ROOT, 'resources', 'sample-data'), root, { recursive: true })
    const lib = path.join(root, 'alice', 'general', 'experience')
    const before = files(lib)
    const plain = cli(['reflect', '--root-dir', lib])
    expect(plain.code).toBe(2)
    expect(plain.stdout).toBe('')
    expect(plain.stderr).toBe(
      `skillbench reflect: ${lib} looks like a skill library (skill files, no task folders), not an agents' data root: reflect reads the tasks of <root>/<user>/output_YYYYMMDD_HHMMSS/ and writes their skills to <root>/<user>/general/experience, so give the data root (for …/<user>/general/experience, the folder three levels up) or, for a library, \`skillbench list --library ${lib}\`\n`
    )
    const json = cli(['reflect', '--root-dir', lib, '--json'])
    expect(json.code).toBe(2)
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'error', code: 'usage', message_code: 'cli.root_is_library', params: { root: lib } })
    const zh = cli(['reflect', '--root-dir', lib, '--lang', 'zh'])
    expect(zh.code).toBe(2)
    expect(zh.stderr).toMatch(/^skillbench reflect: .* 看起来是一个技能库/)
    // a folder of SKILL.md skills too
    const skillMd = path.join(dir, 'skills', 'pdf-tools')
    fs.mkdirSync(skillMd, { recursive: true })
    fs.writeFileSync(path.join(skillMd, 'SKILL.md'), '---\nname: pdf-tools\ndescription: Work with PDF files\n---\nUse pdftotext.\n')
    expect(cli(['reflect', '--root-dir', path.join(dir, 'skills'), '--json']).code).toBe(2)
    expect(files(lib)).toEqual(before)
    // the data root above it is what reflect reads
    const ok = cli(['reflect', '--root-dir', root, '--user', 'alice', '--json'])
    expect(ok.code, ok.stderr).toBe(0)
    expect((JSON.parse(ok.stdout) as { created: unknown[] }).created.length).toBe(3)
    // an empty folder still says "no task folders" (exit 0), as before
    fs.mkdirSync(path.join(dir, 'empty'))
    const empty = cli(['reflect', '--root-dir', path.join(dir, 'empty')])
    expect(empty.code).toBe(0)
    expect(empty.stderr).toContain('no task folders in ')
  })
})

describe('--help', () => {
  it('reflect describes --force in a user\'s words', () => {
    const r = cli(['reflect', '--help'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('--force: reflect again the tasks reflected before and those whose enhancement waits for review (skipped by default)\n')
    expect(r.stdout).not.toMatch(/seed/i)
  })

  it('no command shows an internal seed reference', async () => {
    for (const name of Object.keys(COMMANDS)) {
      const r = await runCli([name, '--help'], dir, {})
      expect(r.code, name).toBe(0)
      expect(r.stdout, name).not.toMatch(/\bseed \d/i)
    }
  })
})

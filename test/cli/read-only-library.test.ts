/**
 * A library this user cannot write (a shared or mounted folder; here `chmod -R a-w`) is still searched and deployed
 * from: `query` (and MCP `query_skill`) answered with an error and no skills only because the use could not be
 * recorded, `deploy` failed on the library's own bookkeeping although it only reads the library, and `rate`, `edit`,
 * `delete` (and MCP `rate_skill`) printed a raw EACCES with no message code. Now a query answers and says the use was
 * not counted (`use_recorded: false` in the JSON), a deploy places the skills and says what it could not keep, and the
 * writing commands say "read-only" by code, naming the library.
 *
 * Real processes (node bin/skillbench.cjs, and the MCP server over stdio) as a user that file modes stop: the tests'
 * own user when it is not root, else uid/gid 65534 through `setpriv` (root reads and writes anything). When neither
 * works here the tests are skipped, and the reason is the name of the one test that runs.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = path.resolve(__dirname, '..', '..')
const BIN = path.join(ROOT, 'bin', 'skillbench.cjs')
const SAMPLE = path.join(ROOT, 'resources', 'sample-data', 'alice', 'general', 'experience')
const NOBODY = 65534
const AS_ROOT = process.getuid?.() === 0
/** The command prefix that runs a program as the unprivileged user ([] when the tests already are one). */
const DROP = AS_ROOT ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'] : []

let dir: string
let lib: string
let pristine: string
let home: string
let env: Record<string, string>

/** Why these tests cannot run here, or null. */
function cannotRun(): string | null {
  if (process.platform === 'win32' || !process.getuid) return 'file modes do not stop writes on this platform'
  if (!AS_ROOT) return null
  for (let p = os.tmpdir(); p !== path.dirname(p); p = path.dirname(p)) {
    if ((fs.statSync(p).mode & 0o005) !== 0o005) return `running as root, and uid ${NOBODY} cannot enter ${p} (the temporary folder's path)`
  }
  const probe = spawnSync(DROP[0]!, [...DROP.slice(1), process.execPath, '-e', `require('fs').accessSync(${JSON.stringify(BIN)}); process.exit(process.getuid() === ${NOBODY} ? 0 : 3)`], { encoding: 'utf8' })
  if (probe.error) return `running as root, and setpriv cannot be run to drop privileges (${probe.error.message})`
  if (probe.status !== 0) return `running as root, and setpriv could not run node as uid ${NOBODY} reading ${BIN} (exit ${probe.status}: ${probe.stderr.trim().split('\n')[0]})`
  return null
}
const skipReason = cannotRun()

/** A folder the unprivileged user may enter (and, with `own`, write): the test run's folders are root's, 0700. */
function openTo(p: string, own: boolean): void {
  fs.chmodSync(p, 0o755)
  if (AS_ROOT && own) fs.chownSync(p, NOBODY, NOBODY)
}

/** `skillbench ARGS` as the unprivileged user. */
function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const [cmd, ...pre] = DROP.length > 0 ? DROP : [process.execPath]
  const r = spawnSync(cmd!, DROP.length > 0 ? [...pre, process.execPath, BIN, ...args] : [BIN, ...args], { cwd: dir, encoding: 'utf8', timeout: 120_000, env })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** Every file under a folder with its bytes and modification time (for "nothing was written"). */
function state(root: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const e of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
    const p = path.join(e.parentPath, e.name)
    out[path.relative(root, p)] = e.isFile() ? `${fs.statSync(p).mtimeMs} ${fs.readFileSync(p).toString('base64')}` : 'folder'
  }
  return out
}

beforeAll(() => {
  if (skipReason) return
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-ro-')))
  openTo(dir, false) // (the folders above it were checked by cannotRun)
  home = path.join(dir, 'home')
  fs.mkdirSync(home)
  openTo(home, true)
  env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    TMPDIR: home,
    NODE_OPTIONS: '',
    SKILLBENCH_LANG: '',
    SKILLBENCH_CONFIG_DIR: path.join(home, 'config'),
    SKILLBENCH_CACHE_DIR: path.join(home, 'cache'),
    SKILLBENCH_SEARCH_SERVER: 'off'
  }
  // a library that was used before (its .skillbench folder and ledger exist), then made read-only for everyone
  lib = path.join(dir, 'lib')
  fs.cpSync(SAMPLE, lib, { recursive: true })
  fs.mkdirSync(path.join(lib, '.skillbench'))
  fs.writeFileSync(path.join(lib, '.skillbench', 'usage.jsonl'), '')
  // and one never used (no .skillbench folder to make)
  pristine = path.join(dir, 'pristine')
  fs.cpSync(SAMPLE, pristine, { recursive: true })
  spawnSync('chmod', ['-R', 'a-w', lib, pristine])
})

afterAll(() => {
  if (!dir) return
  spawnSync('chmod', ['-R', 'u+w', dir])
  fs.rmSync(dir, { recursive: true, force: true })
})

describe.skipIf(skipReason !== null)('a read-only library', () => {
  it('is read-only for the user the commands run as (else the other tests would prove nothing)', () => {
    const r = spawnSync(DROP[0] ?? process.execPath, DROP.length > 0 ? [...DROP.slice(1), process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(path.join(lib, 'x'))}, '')`] : ['-e', `require('fs').writeFileSync(${JSON.stringify(path.join(lib, 'x'))}, '')`], { encoding: 'utf8' })
    expect(r.status).not.toBe(0)
    expect(r.stderr).toMatch(/EACCES|EROFS|EPERM/)
  })

  it('query answers and says the use was not counted (text, --json with use_recorded: false, --lang zh); nothing is written', () => {
    const before = state(lib)
    const plain = cli(['query', 'python calculator', '--library', lib])
    expect(plain.code, plain.stderr).toBe(0)
    expect(plain.stdout).toContain('Found 2 relevant skill(s):')
    expect(plain.stdout).toContain('1792400000')
    expect(plain.stderr).toBe(`skillbench query: not counted as a use: the library ${lib} is read-only for this user\n`)
    const json = cli(['query', 'python calculator', '--library', lib, '--json'])
    expect(json.code, json.stderr).toBe(0)
    const answer = JSON.parse(json.stdout) as Record<string, unknown> & { skills: { skill_id: string; fetch_count: number }[] }
    expect(answer).toMatchObject({
      status: 'success',
      skills_count: 2,
      use_recorded: false,
      use_notice: { message: `not counted as a use: the library ${lib} is read-only for this user`, message_code: 'tool.use_not_counted_read_only', params: { path: lib } }
    })
    // the counts as they are on disk: nothing was added
    expect(answer.skills.find((s) => s.skill_id === '1792400000')!.fetch_count).toBe(Number(/fetch_count: (\d+)/.exec(fs.readFileSync(path.join(lib, 'skill_Python command-line calc.md'), 'utf8'))![1]))
    const zh = cli(['query', 'python calculator', '--library', lib, '--lang', 'zh'])
    expect(zh.code).toBe(0)
    expect(zh.stderr).toBe(`skillbench query: 未计为一次使用：技能库 ${lib} 对当前用户是只读的\n`)
    expect(state(lib)).toEqual(before)
    const fresh = cli(['query', 'python calculator', '--library', pristine])
    expect(fresh.code, fresh.stderr).toBe(0)
    expect(fresh.stdout).toContain('1792400000')
    expect(fresh.stderr).toBe(`skillbench query: not counted as a use: the library ${pristine} is read-only for this user\n`)
    expect(fs.existsSync(path.join(pristine, '.skillbench'))).toBe(false)
  })

  it('rate, edit and delete say "read-only" by code, naming the library (en, zh, --json); nothing is written', () => {
    const before = state(lib)
    const cases = [
      ['rate', '1792400000', '0.9'],
      ['edit', '1792400000', '--mode', 'append', '--text', 'more'],
      ['delete', '1792400000']
    ]
    for (const args of cases) {
      const r = cli([...args, '--library', lib])
      expect(r.code, args[0]).toBe(1)
      expect(r.stderr).toBe(`skillbench ${args[0]}: the library ${lib} is read-only for this user: nothing was changed (ask its owner, or work on a writable copy)\n`)
      const json = cli([...args, '--library', lib, '--json'])
      expect(JSON.parse(json.stdout), args[0]).toMatchObject({ status: 'error', code: 'read_only', message_code: 'library.read_only', params: { path: lib } })
    }
    const zh = cli(['rate', '1792400000', '0.9', '--library', lib, '--lang', 'zh'])
    expect(zh.stderr).toBe(`skillbench rate: 技能库 ${lib} 对当前用户是只读的：没有做任何修改（请联系它的所有者，或在可写副本上操作）\n`)
    expect(state(lib)).toEqual(before)
  })

  it('deploy places the skills and says what it could not keep; deployed again, they are in sync', () => {
    const before = state(lib)
    const target = path.join(home, 'agent-skills')
    const first = cli(['deploy', '--library', lib, '--to', target])
    expect(first.code, first.stderr).toBe(0)
    expect(first.stdout).toContain('4 new, 0 updated, 0 removed')
    expect(first.stdout).toContain(`the library ${lib} is read-only for this user, so this deploy keeps nothing there: it cannot be undone with \`skillbench undo\``)
    expect(fs.readFileSync(path.join(target, 'python-command-line-calculator-with-safe-division-and-pytest', 'SKILL.md'), 'utf8')).toContain('name: python-command-line-calculator-with-safe-division-and-pytest')
    expect(fs.existsSync(path.join(target, '.skillbench-deploy.json'))).toBe(true)
    const again = cli(['deploy', '--library', lib, '--to', target, '--json'])
    expect(again.code, again.stderr).toBe(0)
    const result = JSON.parse(again.stdout) as { counts: Record<string, number>; journal_id: string | null }
    expect(result.counts).toMatchObject({ written: 0, updated: 0, unchanged: 4, left: 0 })
    expect(result.journal_id).toBeNull()
    expect(state(lib)).toEqual(before)
  })

  it('MCP: query_skill answers (use_recorded: false), rate_skill says read-only by code', async () => {
    const before = state(lib)
    const [command, ...pre] = DROP.length > 0 ? DROP : [process.execPath]
    const transport = new StdioClientTransport({ command: command!, args: [...(DROP.length > 0 ? [...pre, process.execPath] : []), BIN, 'mcp', '--library', lib, '--ignore-settings'], cwd: dir, stderr: 'pipe', env })
    let stderr = ''
    transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()))
    const client = new Client({ name: 'read-only-test', version: '1.0.0' })
    await client.connect(transport)
    try {
      const q = (await client.callTool({ name: 'query_skill', arguments: { query: 'python calculator' } })) as { isError?: boolean; structuredContent?: Record<string, unknown> }
      expect(q.isError, stderr).toBe(false)
      expect(q.structuredContent).toMatchObject({ status: 'success', skills_count: 2, use_recorded: false, use_notice: { message_code: 'tool.use_not_counted_read_only', params: { path: lib } } })
      const rated = (await client.callTool({ name: 'rate_skill', arguments: { skill_id: '1792400000', rating: 0.9 } })) as { isError?: boolean; structuredContent?: Record<string, unknown> }
      expect(rated.isError).toBe(true)
      expect(rated.structuredContent).toMatchObject({ status: 'error', code: 'read_only', message_code: 'library.read_only', params: { path: lib } })
    } finally {
      await client.close()
    }
    expect(state(lib)).toEqual(before)
  })
})

describe.runIf(skipReason !== null)('a read-only library (skipped)', () => {
  it(`cannot be tested here: ${skipReason}`, () => {
    expect(skipReason).not.toBeNull()
  })
})

/**
 * Every command says whether it writes where its arguments point (registry.ts, `writes`), and the bundled sample data
 * (the install's resources/sample-data) is refused only to the ones that may: a command that only prints what is
 * there (list, validate, scan, usage, proposals, memory show / prompt, profile list / show, deploy --dry-run…) runs
 * on it, and the sample's files keep their bytes and times. Before, `memory show`, `profile list` and
 * `deploy --dry-run` were refused with the writers.
 *
 * The table below walks the command table: a new command fails here until it is given a run on the sample and
 * whether that run reads or writes; each run is made through the CLI's main (its exit and stderr checked), but for
 * the search daemon, which would stay up (its decision alone is checked).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COMMANDS } from '../../src/main/cli/registry'
import { commandWrites } from '../../src/main/cli/bundled-sample'
import { runCli } from '../formats/helpers'

const ROOT = path.resolve(__dirname, '..', '..')

let dir: string
let sample: string
let env: NodeJS.ProcessEnv

beforeAll(async () => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-writes-')))
  const install = path.join(dir, 'install', 'resources')
  sample = path.join(install, 'sample-data')
  fs.mkdirSync(install, { recursive: true })
  fs.cpSync(path.join(ROOT, 'resources', 'sample-data'), sample, { recursive: true })
  env = {
    ...process.env,
    SKILLBENCH_RESOURCES_DIR: install,
    SKILLBENCH_CONFIG_DIR: path.join(dir, 'config'),
    SKILLBENCH_CACHE_DIR: path.join(dir, 'cache'),
    SKILLBENCH_HOME: path.join(dir, 'home'),
    SKILLBENCH_SEARCH_SERVER: 'off',
    SKILLBENCH_LANG: ''
  }
  // a deploy profile in the sample, so `profile show` has one to show (made on a copy, as a person would)
  const copy = path.join(dir, 'copy')
  fs.cpSync(path.join(sample, 'alice', 'general', 'experience'), copy, { recursive: true })
  const set = await runCli(['profile', 'set', 'work', '--to', `agents:${path.join(dir, 'out', 'agents')}`, '--skill', '*', '--library', copy], dir, env)
  expect(set.code, set.stderr).toBe(0)
  fs.copyFileSync(path.join(copy, 'deploy-profiles.json'), path.join(sample, 'alice', 'general', 'experience', 'deploy-profiles.json'))
})

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

/** Every entry under a folder: a file's bytes and modification time, a folder's time. */
function state(root: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const rel of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    const p = path.join(root, rel)
    const st = fs.statSync(p)
    out[rel] = st.isFile() ? `${st.mtimeMs} ${fs.readFileSync(p).toString('base64')}` : `${st.mtimeMs}/`
  }
  return out
}

/** A run: its argv, whether it reads or writes on the sample, and a reader's exit when not 0 (it found nothing to show). */
type Run = [args: (s: { root: string; lib: string; ws: string; out: string }) => string[], does: 'reads' | 'writes', exit?: number]

/** One or more runs of every command on the bundled sample, and whether each reads or writes there. */
const RUNS: Record<string, Run[]> = {
  version: [[() => ['version'], 'reads']],
  export: [[({ lib, out }) => ['export', '--to', 'skill-md', '--library', lib, '--out', path.join(out, 'exported')], 'reads']],
  import: [[({ lib, out }) => ['import', '--from', path.join(out, 'nothing'), '--library', lib], 'writes']],
  use: [[({ root }) => ['use', 'python calculator', '--dir', root], 'reads', 1]],
  validate: [[({ lib }) => ['validate', lib], 'reads']],
  hooks: [[({ lib }) => ['hooks', '--print', 'claude', '--library', lib], 'writes']],
  'gen-commands': [[({ lib, out }) => ['gen-commands', '--library', lib, '--bin', path.join(out, 'bin')], 'reads']],
  audit: [[({ lib }) => ['audit', lib], 'reads']],
  list: [[({ lib }) => ['list', '--library', lib, '--legacy'], 'reads']],
  query: [[({ lib }) => ['query', 'python calculator tests', '--library', lib, '--no-server'], 'reads']],
  'search-server': [[({ lib }) => ['search-server', '--library', lib], 'reads']],
  rate: [[({ lib }) => ['rate', '1792400000', '0.9', '--library', lib], 'writes']],
  edit: [[({ lib }) => ['edit', '1792400000', '--mode', 'append', '--text', 'more', '--library', lib], 'writes']],
  delete: [[({ root }) => ['delete', '1792400000', '--root-dir', root, '--user', 'alice'], 'writes']],
  'copy-files': [[({ lib, out }) => ['copy-files', '1792400000', 'calc.py', '--workspace', out, '--library', lib], 'writes']],
  serve: [[({ root }) => ['serve', '--no-open', '--no-build', '--root-dir', root], 'writes']],
  scan: [[({ root }) => ['scan', '--root-dir', root], 'reads']],
  memory: [
    [({ ws }) => ['memory', 'show', '--workspace', ws], 'reads'],
    [({ ws }) => ['memory', '--workspace', ws, 'prompt', '--budget', '2000'], 'reads'],
    [({ ws }) => ['memory', 'add-lesson', '--text', 'a lesson', '--workspace', ws], 'writes'],
    [({ ws, root }) => ['memory', 'evolve', '--root-dir', root, '--user', 'alice', '--workspace', ws], 'writes']
  ],
  mcp: [[({ lib }) => ['mcp', '--library', lib], 'writes']],
  reflect: [[({ root }) => ['reflect', '--root-dir', root], 'writes']],
  usage: [[({ lib, root }) => ['usage', '--library', lib, '--root-dir', root], 'reads']],
  curate: [[({ lib }) => ['curate', '--library', lib], 'writes']],
  proposals: [[({ lib }) => ['proposals', '--library', lib, '--all'], 'reads', 1]],
  accept: [[({ lib }) => ['accept', 'p1', '--library', lib], 'writes']],
  reject: [[({ lib }) => ['reject', 'p1', '--library', lib], 'writes']],
  unreject: [[({ lib }) => ['unreject', 'p1', '--library', lib], 'writes']],
  undo: [[({ lib }) => ['undo', 'p1', '--library', lib], 'writes']],
  restore: [[({ lib }) => ['restore', '1792400000', '--library', lib], 'writes']],
  install: [[({ lib, out }) => ['install', path.join(out, 'repo'), '--library', lib], 'writes']],
  sync: [[({ lib }) => ['sync', '--library', lib], 'writes']],
  update: [[({ lib }) => ['update', '--library', lib], 'writes']],
  deploy: [
    [({ lib, out }) => ['deploy', '--library', lib, '--to', `agents:${path.join(out, 'agents')}`, '--dry-run'], 'reads'],
    [({ lib, out }) => ['deploy', '--library', lib, '--to', `agents:${path.join(out, 'agents')}`], 'writes']
  ],
  enable: [[({ lib, out }) => ['enable', 'calc', '--to', `agents:${path.join(out, 'agents')}`, '--library', lib], 'writes']],
  disable: [[({ lib, out }) => ['disable', 'calc', '--to', `agents:${path.join(out, 'agents')}`, '--library', lib], 'writes']],
  profile: [
    [({ lib }) => ['profile', 'list', '--library', lib], 'reads'],
    [({ lib }) => ['profile', 'show', 'work', '--library', lib], 'reads'],
    [({ lib, out }) => ['profile', 'set', 'work', '--to', `agents:${path.join(out, 'agents')}`, '--library', lib], 'writes']
  ]
}

/** A run the test does not make: it would not end by itself. */
const NOT_RUN = new Set(['search-server'])

const REFUSED = 'is in the sample data bundled with Skillbench, which no command changes: use its writable copy'

describe('every command says whether it writes; the bundled sample is refused only to those that do', () => {
  it('the runs above cover every command of the table, and no other', () => {
    expect(Object.keys(RUNS).sort()).toEqual(Object.keys(COMMANDS).sort())
    for (const [name, entry] of Object.entries(COMMANDS)) expect(['boolean', 'function'], name).toContain(typeof entry.writes)
  })

  it('each run reads or writes as the table says: readers run on the sample and leave it as it was, writers are refused', async () => {
    const where = { root: sample, lib: path.join(sample, 'alice', 'general', 'experience'), ws: path.join(sample, 'alice', 'output_20261101_093000'), out: path.join(dir, 'out') }
    fs.mkdirSync(where.out, { recursive: true })
    const before = state(sample)
    for (const [name, runs] of Object.entries(RUNS)) {
      const { command } = await COMMANDS[name]!.load()
      for (const [argsOf, does, exit] of runs) {
        const args = argsOf(where)
        const label = args.join(' ')
        expect(commandWrites(COMMANDS[name]!, command.options, args.slice(1)), label).toBe(does === 'writes')
        if (NOT_RUN.has(name)) continue
        const r = await runCli(args, dir, env)
        if (does === 'writes') {
          expect(r.code, label).toBe(2)
          expect(r.stderr, label).toContain(REFUSED)
        } else {
          expect(r.stderr, label).not.toContain(REFUSED)
          expect(r.code, `${label}: ${r.stderr}`).toBe(exit ?? 0)
        }
      }
    }
    expect(state(sample)).toEqual(before)
    expect(fs.existsSync(path.join(where.lib, '.skillbench'))).toBe(false)
  })

  it('a reader still may not write its output into the sample (--out, --bin)', async () => {
    const lib = path.join(sample, 'alice', 'general', 'experience')
    for (const args of [
      ['export', '--to', 'skill-md', '--library', lib, '--out', path.join(sample, 'exported')],
      ['gen-commands', '--library', lib, '--bin', path.join(sample, 'bin')]
    ]) {
      const r = await runCli(args, dir, env)
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stderr, args.join(' ')).toContain(REFUSED)
    }
  })
})

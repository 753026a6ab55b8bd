/**
 * bin/code-cache.cjs: the compiled CLI's chunks compile from the V8 bytecode the build kept. Checked on a throw-away
 * "out" folder in child processes (the hook patches the module loader of the process it runs in): training writes
 * a cache per chunk text, a later run uses it with the same results, and an edited chunk or a damaged cache file
 * never runs stale code. The real build is checked too where it exists (after `npm run build`, as `npm test` does).
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

const ROOT = path.resolve(__dirname, '..', '..')
const HOOK = path.join(ROOT, 'bin', 'code-cache.cjs')
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { cacheName, CACHE_DIR, STAT_KEYS, STAT_KEY_TICK_MS } = require(HOOK) as { cacheName: (content: string) => string; CACHE_DIR: string; STAT_KEYS: string; STAT_KEY_TICK_MS: number }

let out: string

/** Runs `entry` under the hook in a new node process; its stdout and the hook's count line. */
function run(entry: string, env: NodeJS.ProcessEnv = {}): { stdout: string; stats: string; code: number | null } {
  // PRINT_CRYPTO: whether node:crypto was loaded by the end (the hook hashes only what it cannot find by key).
  // A script file, not `node -e` (which loads node:crypto itself).
  const report = env.PRINT_CRYPTO ? "; process.stdout.write('crypto loaded: ' + process.moduleLoadList.includes('NativeModule crypto') + '\\n')" : ''
  const script = `require(${JSON.stringify(HOOK)}).useCodeCache(${JSON.stringify(out)}); require(${JSON.stringify(path.join(out, entry))}).main()${report}`
  const runner = `${out}-run.cjs`
  fs.writeFileSync(runner, script)
  const r = spawnSync(process.execPath, [runner], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '', SKILLBENCH_CODE_CACHE_TRACE: '1', SKILLBENCH_CODE_CACHE_TRAIN: '', ...env }
  })
  return { stdout: r.stdout, stats: /\[code cache\] (.*)/.exec(r.stderr)?.[1] ?? r.stderr, code: r.status }
}

const CHUNK = `'use strict'
const helper = require('./helper.js')
exports.main = () => {
  process.stdout.write(helper.word() + ' ' + require('node:path').basename(__filename) + ' ' + require.resolve('./helper.js').endsWith('helper.js') + '\\n')
}
`

beforeEach(() => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-code-cache-'))
  fs.writeFileSync(path.join(out, 'entry.js'), CHUNK)
  fs.writeFileSync(path.join(out, 'helper.js'), "exports.word = () => 'one'\n")
})

afterEach(() => {
  fs.rmSync(out, { recursive: true, force: true })
  fs.rmSync(`${out}-run.cjs`, { force: true })
})

describe('the code cache of compiled chunks', () => {
  it('is written by training only, then used, with the same results (require, require.resolve, __filename)', () => {
    const plain = run('entry.js')
    expect(plain).toEqual({ stdout: 'one entry.js true\n', stats: 'used 0, rejected 0, missing 2', code: 0 })
    expect(fs.existsSync(path.join(out, CACHE_DIR))).toBe(false)

    expect(run('entry.js', { SKILLBENCH_CODE_CACHE_TRAIN: '1' }).code).toBe(0)
    const files = fs.readdirSync(path.join(out, CACHE_DIR)).sort()
    expect(files).toEqual([cacheName(CHUNK), cacheName("exports.word = () => 'one'\n"), STAT_KEYS].sort())

    expect(run('entry.js')).toEqual({ stdout: 'one entry.js true\n', stats: 'used 2, rejected 0, missing 0', code: 0 })
  })

  it('never runs stale code: an edited chunk of the same length has no cache and runs as written', () => {
    run('entry.js', { SKILLBENCH_CODE_CACHE_TRAIN: '1' })
    fs.writeFileSync(path.join(out, 'helper.js'), "exports.word = () => 'two'\n")
    expect(run('entry.js')).toEqual({ stdout: 'two entry.js true\n', stats: 'used 1, rejected 0, missing 1', code: 0 })
  })

  it('refuses a damaged cache file and compiles the chunk from its text', () => {
    run('entry.js', { SKILLBENCH_CODE_CACHE_TRAIN: '1' })
    const file = path.join(out, CACHE_DIR, cacheName("exports.word = () => 'one'\n"))
    const bytes = fs.readFileSync(file)
    bytes.fill(7, 8)
    fs.writeFileSync(file, bytes)
    expect(run('entry.js')).toEqual({ stdout: 'one entry.js true\n', stats: 'used 1, rejected 1, missing 0', code: 0 })
  })

  it('finds an unchanged chunk’s cache by its file’s recorded key, without loading node:crypto; a changed file is hashed', () => {
    // A round mtime (set back exactly below). The keys of files changed within the last 2 s are not trusted (a
    // write in the same clock tick): wait that out.
    const helper = path.join(out, 'helper.js')
    fs.utimesSync(helper, 1_700_000_000, 1_700_000_000)
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2100)
    run('entry.js', { SKILLBENCH_CODE_CACHE_TRAIN: '1' })
    const keys = JSON.parse(fs.readFileSync(path.join(out, CACHE_DIR, STAT_KEYS), 'utf8')) as { files: Record<string, { name: string }> }
    expect(keys.files['helper.js']!.name).toBe(cacheName("exports.word = () => 'one'\n"))
    expect(run('entry.js', { PRINT_CRYPTO: '1' })).toEqual({ stdout: 'one entry.js true\ncrypto loaded: false\n', stats: 'used 2, rejected 0, missing 0', code: 0 })

    // A chunk training never ran has no key and so no cache: compiled from its text, nothing hashed.
    fs.writeFileSync(path.join(out, 'late.js'), "exports.main = () => process.stdout.write('late\\n')\n")
    expect(run('late.js', { PRINT_CRYPTO: '1' })).toEqual({ stdout: 'late\ncrypto loaded: false\n', stats: 'used 0, rejected 0, missing 1', code: 0 })

    // Rewritten with the same length, its mtime set back to the recorded one: the ctime moved, so it is hashed.
    const before = fs.statSync(helper)
    fs.writeFileSync(helper, "exports.word = () => 'two'\n")
    fs.utimesSync(helper, 1_700_000_000, 1_700_000_000)
    const after = fs.statSync(helper)
    expect([after.ino, after.size, after.mtimeMs]).toEqual([before.ino, before.size, before.mtimeMs])
    expect(run('entry.js', { PRINT_CRYPTO: '1' })).toEqual({ stdout: 'two entry.js true\ncrypto loaded: true\n', stats: 'used 1, rejected 0, missing 1', code: 0 })
  })

  it('does not trust a key recorded in the same clock tick as the file’s last change: the chunk is hashed, its cache still used', () => {
    run('entry.js', { SKILLBENCH_CODE_CACHE_TRAIN: '1' })
    expect(run('entry.js', { PRINT_CRYPTO: '1' })).toEqual({ stdout: 'one entry.js true\ncrypto loaded: true\n', stats: 'used 2, rejected 0, missing 0', code: 0 })
    // A damaged key file is no key file.
    fs.writeFileSync(path.join(out, CACHE_DIR, STAT_KEYS), '{"writtenAt": "soon"')
    expect(run('entry.js')).toEqual({ stdout: 'one entry.js true\n', stats: 'used 2, rejected 0, missing 0', code: 0 })
  })

  it('leaves a chunk with a dynamic import() to Node (vm.Script would need an experimental option for it)', () => {
    fs.writeFileSync(path.join(out, 'entry.js'), "exports.main = async () => process.stdout.write((await import('node:path')).basename(__filename) + '\\n')\n")
    expect(run('entry.js', { SKILLBENCH_CODE_CACHE_TRAIN: '1' })).toEqual({ stdout: 'entry.js\n', stats: 'used 0, rejected 0, missing 0', code: 0 })
    expect(fs.readdirSync(path.join(out, CACHE_DIR))).toEqual([])
  })

  it('leaves a chunk that does not compile to Node (the syntax error is reported as Node reports it)', () => {
    fs.writeFileSync(path.join(out, 'helper.js'), 'exports.word = () => (\n')
    const script = `require(${JSON.stringify(HOOK)}).useCodeCache(${JSON.stringify(out)}); require(${JSON.stringify(path.join(out, 'entry.js'))})`
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } })
    expect(r.status).not.toBe(0)
    expect(r.stderr).toMatch(/helper\.js:\d[\s\S]*SyntaxError: Unexpected end of input/)
  })
})

/** Whether bin/skillbench.cjs runs the build (not the sources): every source it lists is older than it. */
function buildIsCurrent(): boolean {
  try {
    const { builtAt, sources } = JSON.parse(fs.readFileSync(path.join(ROOT, 'out', 'main', 'cli-sources.json'), 'utf8')) as { builtAt: number; sources: string[] }
    return sources.every((s) => fs.statSync(path.join(ROOT, s)).mtimeMs <= builtAt)
  } catch {
    return false
  }
}

describe('the real build (after `npm run build`)', () => {
  const built = fs.existsSync(path.join(ROOT, 'out', 'main', CACHE_DIR)) && buildIsCurrent()

  it.skipIf(!built)('compiles every chunk `skillbench --help` loads from the cache, with the same output as without it', () => {
    const bin = path.join(ROOT, 'bin', 'skillbench.cjs')
    const env = { ...process.env, NODE_OPTIONS: '', SKILLBENCH_FROM_SOURCE: '', SKILLBENCH_CODE_CACHE_TRACE: '1' }
    const on = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8', env })
    const off = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8', env: { ...env, SKILLBENCH_CODE_CACHE: '0' } })
    expect(on.stdout).toBe(off.stdout)
    expect(on.stderr).toMatch(/\[code cache\] used [1-9]\d*, rejected 0, missing 0/)
    expect(off.stderr).toBe('')
  })

  it.skipIf(!built)('records every chunk’s key past the clock tick of its last change, so commands take cache names from the keys, not by hashing', () => {
    // Training right after the build recorded keys within the tick (1–2 s after the chunks were written): none was
    // ever trusted, and every command hashed every chunk it loaded.
    const outMain = path.join(ROOT, 'out', 'main')
    const keys = JSON.parse(fs.readFileSync(path.join(outMain, CACHE_DIR, STAT_KEYS), 'utf8')) as { writtenAt: number; files: Record<string, { key: string }> }
    const recorded = Object.entries(keys.files)
    expect(recorded.length).toBeGreaterThan(10)
    const untrusted = recorded.filter(([rel, { key }]) => {
      const st = fs.statSync(path.join(outMain, rel))
      return key !== `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}` || st.ctimeMs + STAT_KEY_TICK_MS > keys.writtenAt
    })
    expect(untrusted.map(([rel]) => rel)).toEqual([])
  })
})

/**
 * Seed 001 §4.5.8, the auto-update component: `skillbench gen-commands --watch` (a real process) keeps the
 * `skill:<skill>:<tool>` wrappers current while scripts are added, changed and removed, and a new skill folder's
 * scripts become commands too; Ctrl-C stops it cleanly.
 */
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { CliIo } from '../../src/main/cli/common'
import { main } from '../../src/main/cli/index'
import { affectsCommands } from '../../src/main/formats/commands-watch'
import { FIXTURES, copyToTemp, tempDir } from './helpers'

const BIN_JS = path.resolve(__dirname, '..', '..', 'bin', 'skillbench.cjs')

/**
 * Output of a watching command, waited for by what it says (no polling): `next(re)` resolves when text written
 * from now on matches, and fails when the command ends first or after `ms` (generous: a start under load is slow,
 * and a missed change should still fail rather than hang).
 */
class Output {
  private text = ''
  private waiters: { from: number; re: RegExp; resolve: () => void; reject: (e: Error) => void; timer: NodeJS.Timeout }[] = []
  ended: string | null = null

  get all(): string {
    return this.text
  }

  push(chunk: string): void {
    this.text += chunk
    for (const w of [...this.waiters]) if (w.re.test(this.text.slice(w.from))) this.settle(w, null)
  }

  end(why: string): void {
    this.ended = why
    for (const w of [...this.waiters]) this.settle(w, new Error(`${why} before ${w.re}; it said: ${this.text.slice(w.from)}`))
  }

  next(re: RegExp, ms = 60_000): Promise<void> {
    const from = this.text.length
    return new Promise<void>((resolve, reject) => {
      if (this.ended !== null) return reject(new Error(`${this.ended} before ${re}`))
      const w = { from, re, resolve, reject, timer: setTimeout(() => this.settle(w, new Error(`not within ${ms} ms: ${re}; it said: ${this.text.slice(from)}`)), ms) }
      this.waiters.push(w)
    })
  }

  private settle(w: Output['waiters'][number], err: Error | null): void {
    clearTimeout(w.timer)
    this.waiters = this.waiters.filter((x) => x !== w)
    if (err) w.reject(err)
    else w.resolve()
  }
}


/**
 * An in-process CLI io for `gen-commands --watch`, stopped by `stop`: every write is kept in `stdout` / `stderr`
 * after `onStdout` / `onStderr` saw it (a test makes its change at an exact line there).
 */
function watchIo(stop: AbortController, stdout: Output, stderr: Output, on: { onStdout?: (text: string) => void; onStderr?: (text: string) => void } = {}): CliIo {
  return {
    stdout: (t) => {
      const text = typeof t === 'string' ? t : Buffer.from(t).toString()
      on.onStdout?.(text)
      stdout.push(text)
    },
    stderr: (t) => {
      on.onStderr?.(t)
      stderr.push(t)
    },
    isTTY: false,
    cwd: process.cwd(),
    env: process.env,
    signal: stop.signal
  }
}
describe('skillbench gen-commands --watch', () => {
  it('regenerates the wrappers when a script is added, changed or removed, and for a new skill folder', { timeout: 120_000 }, async () => {
    const lib = copyToTemp(path.join(FIXTURES, 'skill-md'), 'watch')
    const bin = path.join(tempDir('watch-bin'), 'bin') // made by the first generation
    const p = spawn(process.execPath, [BIN_JS, 'gen-commands', '--library', lib, '--bin', bin, '--watch'], { stdio: ['ignore', 'pipe', 'pipe'] })
    const stdout = new Output()
    const stderr = new Output()
    p.stdout.on('data', (d: Buffer) => stdout.push(d.toString()))
    p.stderr.on('data', (d: Buffer) => stderr.push(d.toString()))
    const exited = new Promise<number | null>((resolve) => p.on('close', (code) => resolve(code)))
    void exited.then((code) => [stdout, stderr].forEach((o) => o.end(`the command ended (${code})`)))
    const wrapper = (cmd: string): string => path.join(bin, cmd)
    const run = (cmd: string, ...args: string[]): string => execFileSync(wrapper(cmd), args, { encoding: 'utf8' })
    const scripts = path.join(lib, 'log-analysis', 'scripts')
    try {
      // said once the watch is up: every change below comes after it
      await stderr.next(/Watching /)
      expect(fs.existsSync(wrapper('skill:log-analysis:parse_errors'))).toBe(true)
      expect(stdout.all).toContain('4 written, 0 unchanged')

      // Added: a new script becomes a command, with its --help.
      let said = stdout.next(/wrote {5}skill:log-analysis:tail_log\n/)
      fs.writeFileSync(path.join(scripts, 'tail_log.sh'), '#!/bin/sh\n# Print the last N lines of a log.\n# Usage: tail_log.sh N FILE\ntail -n "$1" "$2"\n')
      await said
      expect(run('skill:log-analysis:tail_log', '--help')).toContain('Print the last N lines of a log.')
      const log = path.join(lib, 'app.log')
      fs.writeFileSync(log, 'a\nb\nc\n')
      expect(run('skill:log-analysis:tail_log', '2', log)).toBe('b\nc\n')

      // Changed: the wrapper follows the script's new documentation.
      const py = path.join(scripts, 'parse_errors.py')
      said = stdout.next(/wrote {5}skill:log-analysis:parse_errors\n/)
      fs.writeFileSync(py, fs.readFileSync(py, 'utf8').replace('Print the ERROR lines', 'Print only the ERROR lines'))
      await said
      expect(run('skill:log-analysis:parse_errors', '-h')).toMatch(/^Print only the ERROR lines/)

      // Removed: the wrapper is moved aside (never deleted).
      said = stdout.next(/stale {5}skill:log-analysis:count_lines → /)
      fs.rmSync(path.join(scripts, 'count_lines.sh'))
      await said
      expect(fs.existsSync(wrapper('skill:log-analysis:count_lines'))).toBe(false)
      expect(fs.readdirSync(path.join(bin, '.skillbench-stale')).some((n) => n.startsWith('skill:log-analysis:count_lines.'))).toBe(true)

      // A new skill folder with a script, written the way an agent writes it (folder, SKILL.md, then the script).
      const fresh = path.join(lib, 'analyzing-logs')
      said = stdout.next(/wrote {5}skill:analyzing-logs:count_errors\n/)
      fs.mkdirSync(path.join(fresh, 'scripts'), { recursive: true })
      fs.writeFileSync(path.join(fresh, 'SKILL.md'), '---\nname: analyzing-logs\ndescription: Analyze log files for errors.\n---\n# Analyzing logs\n')
      fs.writeFileSync(path.join(fresh, 'scripts', 'count_errors.py'), '"""Count the ERROR lines of a file."""\nimport sys\nprint(sum("ERROR" in l for l in open(sys.argv[1])))\n')
      await said
      fs.writeFileSync(log, 'ERROR x\nok\nERROR y\n')
      expect(run('skill:analyzing-logs:count_errors', log)).toBe('2\n')
    } finally {
      p.kill('SIGINT')
    }
    expect(await exited).toBe(0)
    expect(stderr.all).not.toContain('❌')
  })

  it('says it is watching only once the watch is up: a change made the moment it says so is seen', { timeout: 60_000 }, async () => {
    // in-process, so the change is made synchronously inside the "Watching" line's write, with no delay at all
    const lib = copyToTemp(path.join(FIXTURES, 'skill-md'), 'watch-ready')
    const bin = path.join(tempDir('watch-ready-bin'), 'bin')
    const stdout = new Output()
    const stderr = new Output()
    const stop = new AbortController()
    const io = watchIo(stop, stdout, stderr, {
      onStderr: (t) => {
        if (t.startsWith('Watching ')) fs.writeFileSync(path.join(lib, 'log-analysis', 'scripts', 'at_once.sh'), '#!/bin/sh\n# Made at once.\necho at once\n')
      }
    })
    const said = stdout.next(/wrote {5}skill:log-analysis:at_once\n/, 15_000)
    const ran = main(['gen-commands', '--library', lib, '--bin', bin, '--watch'], io)
    try {
      await said
      expect(execFileSync(path.join(bin, 'skill:log-analysis:at_once'), { encoding: 'utf8' })).toBe('at once\n')
    } finally {
      stop.abort()
    }
    expect(await ran).toBe(0)
    expect(stderr.all).toMatch(/^Watching /)
  })

  it('loses no change made between the first generation and the watch: it is picked up with no further change', { timeout: 60_000 }, async () => {
    // in-process, so the change is made synchronously inside the first report's summary line: after the first
    // generation scanned the library, and (before the fix) before fs.watch was set up
    const lib = copyToTemp(path.join(FIXTURES, 'skill-md'), 'watch-gap')
    const bin = path.join(tempDir('watch-gap-bin'), 'bin')
    const stdout = new Output()
    const stderr = new Output()
    const order: string[] = []
    const stop = new AbortController()
    const io = watchIo(stop, stdout, stderr, {
      onStdout: (text) => {
        if (/^4 written, 0 unchanged/.test(text)) fs.writeFileSync(path.join(lib, 'log-analysis', 'scripts', 'in_between.sh'), '#!/bin/sh\n# Made in between.\necho in between\n')
        order.push(text.split(' ')[0] ?? '')
      },
      onStderr: (t) => order.push(t.split(' ')[0] ?? '')
    })
    const said = stdout.next(/wrote {5}skill:log-analysis:in_between\n/, 15_000)
    const ran = main(['gen-commands', '--library', lib, '--bin', bin, '--watch'], io)
    try {
      await said
      expect(execFileSync(path.join(bin, 'skill:log-analysis:in_between'), { encoding: 'utf8' })).toBe('in between\n')
    } finally {
      stop.abort()
    }
    expect(await ran).toBe(0)
    // the lines as before: the first report, then "Watching", then the change's generation
    expect(order.indexOf('Watching')).toBe(order.indexOf('4') + 1)
    expect(stdout.all.match(/^\d+ written, /gm)).toEqual(['4 written, ', '1 written, '])
    expect(stderr.all).toMatch(/^Watching [^\n]*\n$/)
  })

  it('a watch that fails during the first generation is said after its report, and the command ends', { timeout: 60_000 }, async () => {
    // a real failure: Node's recursive watch (Linux) re-reads the library's top folder when the generation makes the
    // bin folder in it, and a symbolic-link loop there fails that read (ELOOP) with an 'error' on the watcher
    const lib = copyToTemp(path.join(FIXTURES, 'skill-md'), 'watch-fails')
    fs.symlinkSync('loop', path.join(lib, 'loop'))
    const bin = path.join(lib, 'bin')
    const stdout = new Output()
    const stderr = new Output()
    const order: string[] = []
    const stop = new AbortController()
    const io = watchIo(stop, stdout, stderr, { onStdout: (t) => order.push(`out: ${t}`), onStderr: (t) => order.push(`err: ${t}`) })
    const failed = stderr.next(/❌ /)
    const ran = main(['gen-commands', '--library', lib, '--bin', bin, '--watch'], io)
    try {
      await failed
      // the watch is over: the command ends by itself, as it did
      expect(await ran).toBe(0)
    } finally {
      stop.abort()
    }
    expect(fs.existsSync(path.join(bin, 'skill:log-analysis:parse_errors'))).toBe(true)
    const summary = order.findIndex((l) => /^out: 4 written, 0 unchanged, 0 moved aside, 2 skipped/.test(l))
    expect(summary).toBeGreaterThan(0)
    // the report whole, then the error; never "Watching" (nothing watches)
    expect(order.slice(summary + 1)).toEqual([`err: ❌ ELOOP: too many symbolic links encountered, stat '${path.join(fs.realpathSync(lib), 'loop')}'\n`])
    expect(order.filter((l) => l.startsWith('err: '))).toHaveLength(1)
  })

  it('wakes for skill files and scripts, never for its own bin folder inside the library or bookkeeping', () => {
    expect(affectsCommands('log-analysis/scripts/x.py', 'bin')).toBe(true)
    expect(affectsCommands('new-skill', 'bin')).toBe(true)
    expect(affectsCommands('bin/skill:a:b', 'bin')).toBe(false)
    expect(affectsCommands('bin', 'bin')).toBe(false)
    expect(affectsCommands('binary/scripts/x.py', 'bin')).toBe(true)
    expect(affectsCommands('.skillbench/usage.jsonl', null)).toBe(false)
    expect(affectsCommands('a/.git/index', null)).toBe(false)
    expect(affectsCommands('a/scripts/.skillbench-tmp-12-ab.tmp', null)).toBe(false)
  })
})

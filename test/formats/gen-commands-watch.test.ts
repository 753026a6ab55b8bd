/**
 * Seed 001 §4.5.8, the auto-update component: `skillbench gen-commands --watch` (a real process) keeps the
 * `skill:<skill>:<tool>` wrappers current while scripts are added, changed and removed, and a new skill folder's
 * scripts become commands too; Ctrl-C stops it cleanly.
 */
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { affectsCommands } from '../../src/main/formats/commands-watch'
import { FIXTURES, copyToTemp, tempDir } from './helpers'

const BIN_JS = path.resolve(__dirname, '..', '..', 'bin', 'skillbench.cjs')

async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  const start = Date.now()
  while (!ok()) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms: ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('skillbench gen-commands --watch', () => {
  it('regenerates the wrappers when a script is added, changed or removed, and for a new skill folder', { timeout: 120_000 }, async () => {
    const lib = copyToTemp(path.join(FIXTURES, 'skill-md'), 'watch')
    const bin = path.join(tempDir('watch-bin'), 'bin') // made by the first generation
    const p = spawn(process.execPath, [BIN_JS, 'gen-commands', '--library', lib, '--bin', bin, '--watch'], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const exited = new Promise<number | null>((resolve) => p.on('close', (code) => resolve(code)))
    const wrapper = (cmd: string): string => path.join(bin, cmd)
    const run = (cmd: string, ...args: string[]): string => execFileSync(wrapper(cmd), args, { encoding: 'utf8' })
    const scripts = path.join(lib, 'log-analysis', 'scripts')
    try {
      await until('the first generation', () => stderr.includes('Watching'))
      expect(fs.existsSync(wrapper('skill:log-analysis:parse_errors'))).toBe(true)
      expect(stdout).toContain('4 written, 0 unchanged')

      // Added: a new script becomes a command, with its --help.
      fs.writeFileSync(path.join(scripts, 'tail_log.sh'), '#!/bin/sh\n# Print the last N lines of a log.\n# Usage: tail_log.sh N FILE\ntail -n "$1" "$2"\n')
      await until('the added script', () => fs.existsSync(wrapper('skill:log-analysis:tail_log')))
      expect(run('skill:log-analysis:tail_log', '--help')).toContain('Print the last N lines of a log.')
      const log = path.join(lib, 'app.log')
      fs.writeFileSync(log, 'a\nb\nc\n')
      expect(run('skill:log-analysis:tail_log', '2', log)).toBe('b\nc\n')

      // Changed: the wrapper follows the script's new documentation.
      const py = path.join(scripts, 'parse_errors.py')
      fs.writeFileSync(py, fs.readFileSync(py, 'utf8').replace('Print the ERROR lines', 'Print only the ERROR lines'))
      await until('the changed script', () => run('skill:log-analysis:parse_errors', '-h').startsWith('Print only the ERROR lines'))

      // Removed: the wrapper is moved aside (never deleted).
      fs.rmSync(path.join(scripts, 'count_lines.sh'))
      await until('the removed script', () => !fs.existsSync(wrapper('skill:log-analysis:count_lines')))
      expect(fs.readdirSync(path.join(bin, '.skillbench-stale')).some((n) => n.startsWith('skill:log-analysis:count_lines.'))).toBe(true)

      // A new skill folder with a script, written the way an agent writes it (folder, SKILL.md, then the script).
      const fresh = path.join(lib, 'analyzing-logs')
      fs.mkdirSync(path.join(fresh, 'scripts'), { recursive: true })
      fs.writeFileSync(path.join(fresh, 'SKILL.md'), '---\nname: analyzing-logs\ndescription: Analyze log files for errors.\n---\n# Analyzing logs\n')
      fs.writeFileSync(path.join(fresh, 'scripts', 'count_errors.py'), '"""Count the ERROR lines of a file."""\nimport sys\nprint(sum("ERROR" in l for l in open(sys.argv[1])))\n')
      await until('the new skill folder', () => fs.existsSync(wrapper('skill:analyzing-logs:count_errors')))
      fs.writeFileSync(log, 'ERROR x\nok\nERROR y\n')
      expect(run('skill:analyzing-logs:count_errors', log)).toBe('2\n')
      expect(stdout).toMatch(/wrote {5}skill:log-analysis:tail_log\n/)
      expect(stdout).toMatch(/stale {5}skill:log-analysis:count_lines → /)
    } finally {
      p.kill('SIGINT')
    }
    expect(await exited).toBe(0)
    expect(stderr).not.toContain('❌')
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

/**
 * `skillbench mcp --library FILE` (a skill file given for its library, a newcomer's slip) ended with an unhandled
 * rejection: Node's stack trace of ENOTDIR from the index's walk. The server now says "not a folder" in one line and
 * exits 1, as `query` does. Run as users run it (`node bin/skillbench.cjs`), on a copy of the fixture library.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { copyTree, FIXTURE_LIBRARY, tempDir } from '../store/helpers'

const ROOT = path.resolve(__dirname, '..', '..')
let dir: string

beforeEach(() => {
  dir = copyTree(FIXTURE_LIBRARY)
})

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('mcp --library on a file', () => {
  it('one line "not a folder", exit 1, no stack trace; stdout carries nothing (it is the protocol\'s)', () => {
    const file = path.join(dir, 'skill_Python计算器开发.md')
    const env = { ...process.env, SKILLBENCH_CONFIG_DIR: tempDir('sb-mcp-config-') }
    const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'skillbench.cjs'), 'mcp', '--library', file], { input: '', encoding: 'utf8', cwd: dir, env, timeout: 60_000 })
    expect(r.stdout).toBe('')
    expect(r.stderr).not.toMatch(/ENOTDIR|\n\s+at /)
    expect(r.stderr).toContain(`skillbench mcp: not a folder: ${file}\n`)
    expect(r.status).toBe(1)
  })
})

// `skillbench import --from` with one skill: a skill folder or a single skill file; and an import that finds nothing.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES, runCli, snapshot, tempDir } from './helpers'

describe('skillbench import of one skill', () => {
  it('imports a skill folder given directly, with its resources', async () => {
    const library = path.join(tempDir('one-lib'), 'lib')
    const folder = path.join(FIXTURES, 'skill-md', 'log-analysis')
    const before = snapshot(folder)
    const r = await runCli(['import', '--from', folder, '--library', library])
    expect(r).toMatchObject({ code: 0, stderr: '' })
    expect(r.stdout).toContain('1 written, 0 skipped, 0 unreadable')
    expect(fs.readFileSync(path.join(library, 'log-analysis', 'scripts', 'parse_errors.py'))).toEqual(fs.readFileSync(path.join(folder, 'scripts', 'parse_errors.py')))
    expect(fs.existsSync(path.join(library, 'log-analysis', 'references', 'patterns.md'))).toBe(true)
    expect(fs.existsSync(path.join(library, 'index.json'))).toBe(false) // a new library's catalogue goes with the bookkeeping
    expect(JSON.parse(fs.readFileSync(path.join(library, '.skillbench', 'index.json'), 'utf8')).skills.map((s: { name: string }) => s.name)).toEqual(['log-analysis'])
    expect(snapshot(folder)).toEqual(before)
  })

  it('imports a single SKILL.md path, and a single file of another format', async () => {
    const library = path.join(tempDir('file-lib'), 'lib')
    const r = await runCli(['import', '--from', path.join(FIXTURES, 'skill-md', 'tools', 'csv-report', 'SKILL.md'), '--library', library, '--json'])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).written.map((w: { to: string }) => w.to)).toEqual(['csv-report/SKILL.md'])
    expect(fs.existsSync(path.join(library, 'csv-report', 'scripts', 'report.py'))).toBe(true)
    const y = await runCli(['import', '--from', path.join(FIXTURES, 'learned', 'user_auth_flow.yaml'), '--library', library, '--json'])
    expect(y.code).toBe(0)
    expect(JSON.parse(y.stdout).written).toHaveLength(1)
  })

  it('says so and exits 1 when it finds nothing', async () => {
    const empty = tempDir('empty-src')
    fs.writeFileSync(path.join(empty, 'notes.txt'), 'not a skill\n')
    const library = path.join(tempDir('empty-lib'), 'lib')
    const r = await runCli(['import', '--from', empty, '--library', library])
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/^skillbench import: no skills found in .*empty-src.*nothing was imported\n$/)
    const f = await runCli(['import', '--from', path.join(empty, 'notes.txt'), '--library', library])
    expect(f.code).toBe(1)
    expect(f.stdout).toContain('notes.txt: not a skill file name')
  })
})

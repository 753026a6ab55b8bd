import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildSkillIndex, readSkillIndex } from '../../src/main/formats/skill-index'
import { parseSkillMd, validateSkillMd } from '../../src/main/formats/skill-md'
import { loadSkillTree } from '../../src/main/formats/tree'
import { FIXTURES, copyToTemp, runCli, snapshot, tempDir } from './helpers'

describe('skillbench import / export', () => {
  it('imports every format into a SKILL.md library, keeps index.json in sync, and never overwrites silently', async () => {
    const from = path.join(tempDir('import-src'), 'all')
    for (const f of ['learned', 'mas', 'agiagent', 'skill-md']) fs.cpSync(path.join(FIXTURES, f), path.join(from, f), { recursive: true })
    const library = copyToTemp(path.join(FIXTURES, 'skill-md'), 'lib') // already has log-analysis and csv-report
    const before = snapshot(from)
    const r = await runCli(['import', '--from', from, '--library', library, '--json'])
    const report = JSON.parse(r.stdout)
    expect(snapshot(from)).toEqual(before) // reading never changes a file
    expect(report.to).toBe('skill-md')
    // 4 learned + 2 valid MAS + broken MAS + 1 AGIAgent are new; the 2 SKILL.md already exist → skipped with a reason.
    expect(report.written.map((w: { to: string }) => w.to).sort()).toEqual([
      'broken-pattern/SKILL.md',
      'broken/SKILL.md',
      'database-migration/SKILL.md',
      'evil-pattern/SKILL.md',
      'planning/SKILL.md',
      'python-ji-suan-qi-xiang-mu-kai-fa/SKILL.md',
      'reflection/SKILL.md',
      'yong-hu-ren-zheng-liu-cheng/SKILL.md'
    ])
    expect(report.skipped).toEqual([
      { from: 'skill-md/log-analysis/SKILL.md', to: 'log-analysis/SKILL.md', reason: 'a file with this name already exists (use --overwrite to replace it)', messageCode: 'convert.exists', params: {} },
      { from: 'skill-md/tools/csv-report/SKILL.md', to: 'tools/csv-report/SKILL.md', reason: 'a file with this name already exists (use --overwrite to replace it)', messageCode: 'convert.exists', params: {} }
    ])
    expect(report.errors).toEqual([])
    // the catalogue goes with the bookkeeping: the library folder stays what agents load
    expect(report.index).toMatchObject({ file: '.skillbench/index.json', status: 'written', skills: 10 })
    expect(fs.existsSync(path.join(library, 'index.json'))).toBe(false)
    expect(await readSkillIndex(library, '.skillbench/index.json')).toEqual(await buildSkillIndex(library))
    const idx = await readSkillIndex(library, '.skillbench/index.json')
    expect(idx?.skills.find((s) => s.name === 'log-analysis')).toEqual({
      name: 'log-analysis',
      description: expect.stringMatching(/^Analyzes log files/),
      path: 'log-analysis',
      scripts: ['scripts/count_lines.sh', 'scripts/parse_errors.py', 'scripts/requirements.txt', 'scripts/summary.js'],
      references: ['references/patterns.md'],
      assets: []
    })
    // Every imported folder passes the Agent Skills rules.
    for (const w of report.written as { to: string }[]) {
      const rec = parseSkillMd(fs.readFileSync(path.join(library, w.to), 'utf8'))
      expect(validateSkillMd(rec, { dirName: path.dirname(w.to) }).filter((p) => p.level === 'error'), w.to).toEqual([])
    }
    // Second import: everything is skipped, nothing changes.
    const libBefore = snapshot(library)
    const again = JSON.parse((await runCli(['import', '--from', from, '--library', library, '--json'])).stdout)
    expect(again.written).toEqual([])
    expect(again.index.status).toBe('unchanged')
    expect(snapshot(library)).toEqual(libBefore)
    // --overwrite replaces them (and copies resources again).
    const over = JSON.parse((await runCli(['import', '--from', from, '--library', library, '--overwrite', '--json'])).stdout)
    expect(over.written).toHaveLength(10)
  })

  it('imports into an AGIAgent library as skill_*.md, and the learned skill comes back unchanged on export', async () => {
    const library = copyToTemp(path.join(FIXTURES, 'agiagent'), 'agi-lib')
    const from = copyToTemp(path.join(FIXTURES, 'learned'), 'learned-src')
    const r = JSON.parse((await runCli(['import', '--from', from, '--format', 'learned-yaml', '--library', library, '--json'])).stdout)
    expect(r.to).toBe('agiagent')
    expect(r.written).toHaveLength(4)
    const out = tempDir('learned-out')
    const e = JSON.parse((await runCli(['export', '--to', 'learned-yaml', '--library', library, '--out', out, '--json'])).stdout)
    expect(e.written).toHaveLength(5) // 4 learned + the AGIAgent calculator skill
    const original = (await loadSkillTree(from, 'learned-yaml')).skills.find((s) => s.skill.learned_id === 'skill_001')!
    const back = (await loadSkillTree(out, 'learned-yaml')).skills.find((s) => s.skill.learned_id === 'skill_001')!
    // The learned file written back holds the original data plus only our `skillbench` carrier.
    const { skillbench: _carrier, ...data } = (back.record as { data: Record<string, unknown> }).data
    expect(data).toEqual((original.record as { data: Record<string, unknown> }).data)
    const { skill_id: _added, created_at: _c, updated_at: _u, ...rest } = back.skill
    expect(rest).toEqual(original.skill)
  })

  it('exports MAS configs whose available-skills text an agent can use', async () => {
    const out = tempDir('mas-out')
    const r = await runCli(['export', '--to', 'mas-config', '--library', path.join(FIXTURES, 'skill-md'), '--out', out])
    expect(r.code).toBe(0)
    expect(fs.readdirSync(out).sort()).toEqual(['available_skills_and_tools.txt', 'csv_report_config.yaml', 'log_analysis_config.yaml'])
    const v = JSON.parse((await runCli(['validate', out, '--json'])).stdout)
    expect(v.errors).toBe(0)
  })

  it('refuses bad usage with exit code 2', async () => {
    expect((await runCli(['export', '--to', 'pdf', '--library', FIXTURES, '--out', tempDir('x')])).code).toBe(2)
    expect((await runCli(['export', '--to', 'agiagent', '--library', FIXTURES])).code).toBe(2)
    expect((await runCli(['import', '--library', FIXTURES])).code).toBe(2)
    expect((await runCli(['import', '--from', FIXTURES, '--library', tempDir('y'), '--format', 'zip'])).code).toBe(2)
  })
})

describe('skillbench validate', () => {
  it('reports path + problem per file and exits 1 when there are errors', async () => {
    const r = await runCli(['validate', FIXTURES, '--json'])
    expect(r.code).toBe(1)
    const report = JSON.parse(r.stdout)
    const bad = Object.fromEntries(report.files.filter((f: { ok: boolean }) => !f.ok).map((f: { path: string; problems: { message: string }[] }) => [f.path, f.problems.map((p) => p.message)]))
    expect(bad).toEqual({
      'learned/broken_regex.yaml': [expect.stringMatching(/^trigger_pattern: invalid regular expression/)],
      'learned/evil_backtracking.yaml': [expect.stringMatching(/^trigger_pattern: nested quantifier/)],
      'mas/broken_config.yaml': ['use_guide.description must be a non-empty string', 'use_prompt is missing or not a mapping (needs skill_name, skill_prompt and return_format)']
    })
    // the MAS config's findings by code over --json (a script or the app matches on the code, not the words)
    const mas = report.files.find((f: { path: string }) => f.path === 'mas/broken_config.yaml')
    expect(mas.problems.map((p: { messageCode?: string; params?: unknown }) => [p.messageCode, p.params])).toEqual([
      ['masconfig.field_empty', { field: 'use_guide.description' }],
      ['masconfig.prompt_missing', {}]
    ])
    expect(report.files.map((f: { path: string }) => f.path)).not.toContain('learned/not-a-skill.yaml')
    const one = await runCli(['validate', path.join(FIXTURES, 'skill-md', 'log-analysis', 'SKILL.md')])
    expect(one).toMatchObject({ code: 0, stdout: 'ok      SKILL.md\n1 file(s), 0 error(s), 0 warning(s)\n' })
  })

  it('keeps a root index.json a library already has (Synapse\'s ~/.synapse/skills/index.json) where it is', async () => {
    const lib = copyToTemp(path.join(FIXTURES, 'skill-md'), 'syn')
    fs.writeFileSync(path.join(lib, 'index.json'), JSON.stringify({ version: 1, generator: 'skillbench', skills: [] }))
    const r = JSON.parse((await runCli(['import', '--from', copyToTemp(path.join(FIXTURES, 'mas'), 'syn-src'), '--library', lib, '--json'])).stdout)
    expect(r.index).toMatchObject({ file: 'index.json', status: 'written' })
    expect(await readSkillIndex(lib)).toEqual(await buildSkillIndex(lib))
    expect(fs.existsSync(path.join(lib, '.skillbench', 'index.json'))).toBe(false)
  })

  it('warns when index.json is out of date', async () => {
    const lib = copyToTemp(path.join(FIXTURES, 'skill-md'), 'idx')
    await runCli(['import', '--from', copyToTemp(path.join(FIXTURES, 'mas'), 'idx-src'), '--library', lib])
    fs.rmSync(path.join(lib, 'planning'), { recursive: true })
    const report = JSON.parse((await runCli(['validate', lib, '--json'])).stdout)
    expect(report.files.find((f: { path: string }) => f.path === '.skillbench/index.json').problems[0].message).toMatch(/out of date/)
  })
})

describe('skillbench use', () => {
  it('matches trigger patterns, rejects evil and broken ones with a clear error', async () => {
    const dir = path.join(FIXTURES, 'learned')
    const r = await runCli(['use', '如何实现用户登录认证？', '--dir', dir, '--json'])
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out.matches.map((m: { id: string; matched: string }) => [m.id, m.matched])).toEqual([['skill_001', '用户登录认证']])
    expect(out.matches[0].steps).toHaveLength(3)
    expect(out.rejected.map((x: { id: string }) => x.id).sort()).toEqual(['skill_666', 'skill_667'])
    expect(r.stderr).toBe('') // --json: the rejections are in the JSON, not printed a second time
    const none = await runCli(['use', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!', '--dir', dir])
    expect(none.code).toBe(1)
    expect(none.stdout).toBe('no learned skill matches this question\n')
    expect(none.stderr).toContain('evil_backtracking.yaml: trigger_pattern "^(a+)+$" rejected: nested quantifier')
    expect(none.stderr).toContain('broken_regex.yaml: trigger_pattern "login((" rejected: invalid regular expression: Unterminated group\n')
  })
})

describe('skillbench gen-commands (scripts as commands)', () => {
  it('generates skill:<skill>:<tool> wrappers with --help from the script, regenerates on change and on an added script, moves stale ones aside', async () => {
    const lib = copyToTemp(path.join(FIXTURES, 'skill-md'), 'cmds')
    const bin = path.join(tempDir('bin'), 'bin')
    fs.mkdirSync(bin)
    fs.writeFileSync(path.join(bin, 'my-own-tool'), '#!/bin/sh\necho mine\n')
    fs.writeFileSync(path.join(bin, 'skill:csv-report:report'), '#!/bin/sh\necho user wrote this\n')
    const r1 = JSON.parse((await runCli(['gen-commands', '--library', lib, '--bin', bin, '--json'])).stdout)
    expect(r1.written.map((c: { command: string }) => c.command)).toEqual(['skill:log-analysis:count_lines', 'skill:log-analysis:parse_errors', 'skill:log-analysis:summary'])
    expect(r1.skipped.map((s: { path: string; reason: string }) => [s.path, s.reason.split(' ')[0]])).toEqual([
      ['log-analysis/scripts/requirements.txt', 'not'],
      ['tools/csv-report/scripts/report.py', 'skill:csv-report:report']
    ])
    expect(fs.readFileSync(path.join(bin, 'skill:csv-report:report'), 'utf8')).toBe('#!/bin/sh\necho user wrote this\n')

    const run = (cmd: string, ...args: string[]): string => execFileSync(path.join(bin, cmd), args, { encoding: 'utf8' })
    expect(run('skill:log-analysis:parse_errors', '-h')).toBe('Print the ERROR lines of a log file.\n\nUsage: parse_errors.py FILE [--format text|json]\n')
    expect(run('skill:log-analysis:count_lines', '--help')).toBe('Count the lines of each file given.\nUsage: count_lines.sh FILE...\n')
    expect(run('skill:log-analysis:summary', '-h')).toBe('Summarize a log: number of lines, errors and warnings.\nUsage: summary.js FILE\n')
    const log = path.join(lib, 'app.log')
    fs.writeFileSync(log, "INFO start\nERROR it's broken\nWARN hmm\n")
    expect(run('skill:log-analysis:parse_errors', log, '--format', 'json')).toBe('["ERROR it\'s broken"]\n')
    expect(JSON.parse(run('skill:log-analysis:summary', log))).toEqual({ lines: 3, errors: 1 })

    // Nothing changed: nothing rewritten.
    const r2 = JSON.parse((await runCli(['gen-commands', '--library', lib, '--bin', bin, '--json'])).stdout)
    expect(r2.written).toEqual([])
    expect(r2.unchanged).toHaveLength(3)

    // A script changes, another is removed: one wrapper regenerated, the stale one moved aside (not deleted).
    const py = path.join(lib, 'log-analysis', 'scripts', 'parse_errors.py')
    fs.writeFileSync(py, fs.readFileSync(py, 'utf8').replace('Print the ERROR lines', 'Print only the ERROR lines'))
    fs.rmSync(path.join(lib, 'log-analysis', 'scripts', 'count_lines.sh'))
    const r3 = JSON.parse((await runCli(['gen-commands', '--library', lib, '--bin', bin, '--json'])).stdout)
    expect(r3.written.map((c: { command: string }) => c.command)).toEqual(['skill:log-analysis:parse_errors'])
    expect(r3.movedAside.map((m: { command: string }) => m.command)).toEqual(['skill:log-analysis:count_lines'])
    expect(fs.existsSync(path.join(bin, 'skill:log-analysis:count_lines'))).toBe(false)
    expect(fs.readdirSync(path.join(bin, '.skillbench-stale'))).toHaveLength(1)
    expect(run('skill:log-analysis:parse_errors', '-h')).toMatch(/^Print only the ERROR lines/)
    expect(fs.readFileSync(path.join(bin, 'my-own-tool'), 'utf8')).toBe('#!/bin/sh\necho mine\n')
    expect(spawnSync(path.join(bin, 'skill:log-analysis:parse_errors'), [path.join(lib, 'missing.log')]).status).not.toBe(0)

    // A script is added: only its wrapper is written, the others stay as they are.
    fs.writeFileSync(path.join(lib, 'log-analysis', 'scripts', 'tail_log.sh'), '#!/bin/sh\n# Print the last N lines of a log.\ntail -n "$1" "$2"\n')
    const r4 = JSON.parse((await runCli(['gen-commands', '--library', lib, '--bin', bin, '--json'])).stdout)
    expect(r4.written.map((c: { command: string }) => c.command)).toEqual(['skill:log-analysis:tail_log'])
    expect(r4.unchanged).toHaveLength(2)
    expect(run('skill:log-analysis:tail_log', '1', log)).toBe('WARN hmm\n')
  })
})

/**
 * What each agent sees: skills disabled per target and deploy profiles, through real deploys into temp folders
 * shaped like the agents' (Claude Code project, Codex with CODEX_HOME), the budget report per profile with what to
 * disable (least used first, from the usage index: the library's recorded uses), and several processes changing
 * the profiles file and deploying at once.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { DeployResult } from '../../src/shared/api-deploy'
import { readDeployConfig } from '../../src/main/deploy/deploy-config'
import { deploy } from '../../src/main/deploy/run'
import { budgetSuggestions, parseDeployConfig, selectorMatches, serializeDeployConfig, DEPLOY_CONFIG_FILE } from '../../src/main/deploy/selection'
import { setDeployProfile, setSkillsEnabled } from '../../src/main/deploy/selection-service'
import { openLibrary } from '../../src/main/store/library'

const ROOT = path.resolve(__dirname, '..', '..')
let tmp: string
let home: string
let lib: string
let env: NodeJS.ProcessEnv

function skill(name: string, description: string, tags: string[] = []): string {
  const meta = tags.length > 0 ? `metadata:\n  tags: [${tags.join(', ')}]\n` : ''
  return `---\nname: ${name}\ndescription: ${description}\n${meta}---\n\n# ${name}\n\nSteps.\n`
}

function write(rel: string, text: string): void {
  const abs = path.join(lib, rel)
  fs.mkdirSync(path.dirname(abs), { recursive: true })
  fs.writeFileSync(abs, text)
}

function folders(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => !n.startsWith('.')).sort() : []
}

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'skillbench.cjs'), ...args], { env: { ...process.env, ...env, NODE_OPTIONS: '' } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('close', (code) => resolve({ code, stdout, stderr: stderr.split('\n').filter((l) => l && !l.includes('running from source')).join('\n') }))
  })
}

const ctx = (): { env: NodeJS.ProcessEnv; cwd: string } => ({ env, cwd: tmp })
const codexDir = (): string => path.join(home, 'codex-home', 'skills')
const apiDir = (): string => path.join(home, 'api', '.claude', 'skills')

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-select-')))
  home = path.join(tmp, 'home')
  lib = path.join(tmp, 'library')
  fs.mkdirSync(path.join(home, 'api'), { recursive: true })
  env = { SKILLBENCH_HOME: home, HOME: home, CODEX_HOME: path.join(home, 'codex-home') }
  write('pdf/SKILL.md', skill('pdf', 'Work with PDF files.', ['docs']))
  write('sql-tuning/SKILL.md', skill('sql-tuning', 'Tune slow SQL queries.', ['backend']))
  write('api-errors/SKILL.md', skill('api-errors', 'Shape API error responses.', ['backend']))
  write('try-new-thing/SKILL.md', skill('try-new-thing', 'A skill still being tried.', ['experimental']))
  write('ops/runbook/SKILL.md', skill('runbook', 'Follow the on-call runbook.'))
})

afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true })
})

describe('the profiles file', () => {
  it('round-trips sorted, and refuses what it cannot read with the reason', () => {
    const text = serializeDeployConfig({ profiles: { z: { targets: ['codex'], skills: [], except: ['tag:experimental'] }, a: { targets: ['claude-project:~/api'], skills: ['tag:backend'], except: [] } }, disabled: { codex: ['pdf', 'b'] } })
    expect(Object.keys(parseDeployConfig(text).profiles)).toEqual(['a', 'z'])
    expect(parseDeployConfig(text).disabled.codex).toEqual(['b', 'pdf'])
    expect(serializeDeployConfig(parseDeployConfig(text))).toBe(text)
    expect(() => parseDeployConfig('{"version":1,"profiles":{"../x":{}}}')).toThrow(/"\.\.\/x" is not a profile name/)
    expect(() => parseDeployConfig('{"version":1,"profiles":{"a":{"targets":"codex"}}}')).toThrow(/profile a: "targets" must be a list/)
    expect(() => parseDeployConfig('{"version":2}')).toThrow(/version 2 is not one this Skillbench reads/)
    expect(() => parseDeployConfig('{')).toThrow(/deploy-profiles\.json is not JSON/)
  })

  it('a file that does not read fails the CLI with the reason by code (--json), in the same words as before', async () => {
    // a profile's targets that are not a list: the reason nests in deploy.config_invalid with its own code
    fs.writeFileSync(path.join(lib, DEPLOY_CONFIG_FILE), JSON.stringify({ version: 1, profiles: { api: { targets: 'codex' } } }))
    const r = await runCli(['profile', 'list', '--library', lib, '--json'])
    expect(r.code).toBe(1)
    const reason = { messageCode: 'deployjson.profile_list', params: { file: DEPLOY_CONFIG_FILE, name: 'api', field: 'targets' } }
    const message = 'deploy-profiles.json: profile api: "targets" must be a list of non-empty texts: fix it (or take it again from version control); it was not changed'
    expect(JSON.parse(r.stdout)).toEqual({ status: 'error', code: 'invalid_input', message, message_code: 'deploy.config_invalid', params: { reason } })
    const target = await runCli(['deploy', '--to', 'cursor:/x', '--library', lib, '--json'])
    expect(JSON.parse(target.stdout)).toMatchObject({ message_code: 'deploy.bad_target', params: { reason: { messageCode: 'deploy.unknown_target', params: { target: '"cursor:/x"' } } } })
  })

  it('selectors: name, tag and collection (case-insensitive), and *', () => {
    const f = { names: ['sql-tuning', 'SQL tuning', '123'], tags: ['Backend'], collections: ['ops'] }
    expect(['sql-tuning', 'name:sql-tuning', 'tag:backend', 'collection:OPS', '*', '123'].map((s) => selectorMatches(s, f))).toEqual([true, true, true, true, true, true])
    expect(['sql', 'tag:front', 'collection:backend', 'name:Backend'].map((s) => selectorMatches(s, f))).toEqual([false, false, false, false])
  })

  it('suggests the least used first, then the longest listing, until under the budget', () => {
    const ours = [
      { name: 'a', title: 'a', chars: 300 },
      { name: 'b', title: 'b', chars: 500 },
      { name: 'c', title: 'c', chars: 400 },
      { name: 'd', title: 'd', chars: 100 }
    ]
    const usage = new Map([
      ['a', { uses: 5, last_used_at: '2026-11-30T00:00:00Z' }],
      ['c', { uses: 1, last_used_at: '2026-10-01T00:00:00Z' }]
    ])
    expect(budgetSuggestions(ours, usage, 1300, 1000).map((s) => s.name)).toEqual(['b'])
    expect(budgetSuggestions(ours, usage, 1400, 600).map((s) => s.name)).toEqual(['b', 'd', 'c'])
    expect(budgetSuggestions(ours, usage, 900, 1000)).toEqual([])
  })
})

describe('disable and enable per target', () => {
  it('a disabled skill leaves only that target (its placed copy removed), and comes back when enabled', async () => {
    const first = await deploy({ library: lib, to: 'codex', cwd: tmp, env })
    expect(first.counts.written).toBe(5)
    await deploy({ library: lib, to: 'claude-project:~/api', cwd: tmp, env })
    const off = await runCli(['disable', 'pdf', 'SQL tuning-nope', '--to', 'codex', '--library', lib])
    expect(off.code).toBe(1)
    expect(off.stderr).toMatch(/no active skill named "SQL tuning-nope" .*nothing was disabled/)
    expect(fs.existsSync(path.join(lib, DEPLOY_CONFIG_FILE))).toBe(false)
    const ok = await runCli(['disable', 'pdf', 'runbook', '--to', 'codex', '--library', lib])
    expect(ok.stderr).toBe('')
    expect(ok.code).toBe(0)
    expect(ok.stdout).toMatch(/Disabled there now: pdf, runbook/)
    expect(fs.readdirSync(lib).filter((n) => !n.startsWith('.')).sort()).toContain('pdf') // still in the library

    // the runbook copy was changed in Codex's folder: it stays (only an unchanged placed copy is removed)
    fs.appendFileSync(path.join(codexDir(), 'runbook', 'SKILL.md'), '\nMy own note.\n')
    const dry = await deploy({ library: lib, to: 'codex', cwd: tmp, env, dryRun: true })
    const second = await deploy({ library: lib, to: 'codex', cwd: tmp, env })
    expect(dry.skills).toEqual(second.skills)
    expect(second.disabled).toEqual(['pdf', 'runbook'])
    expect(second.skills.find((s) => s.name === 'pdf')!.action).toBe('remove')
    expect(second.skills.find((s) => s.name === 'runbook')!.action).toBe('drifted')
    expect(folders(codexDir())).toEqual(['api-errors', 'runbook', 'sql-tuning', 'try-new-thing'])
    // the other target is not affected
    expect((await deploy({ library: lib, to: 'claude-project:~/api', cwd: tmp, env })).counts.removed).toBe(0)
    expect(folders(apiDir())).toContain('pdf')
    // --skill of a disabled skill: not deployed there, said so
    const only = await deploy({ library: lib, to: 'codex', skills: ['pdf'], cwd: tmp, env })
    expect(only.disabled).toEqual(['pdf'])
    expect(folders(codexDir())).not.toContain('pdf')

    // the same folder named another way is the same target
    await setSkillsEnabled(lib, codexDir(), ['pdf'], true, ctx())
    expect((await readDeployConfig(fs.realpathSync(lib))).disabled).toEqual({ codex: ['runbook'] })
    const back = await deploy({ library: lib, to: 'codex', cwd: tmp, env })
    expect(back.skills.find((s) => s.name === 'pdf')!.action).toBe('create')
    expect(folders(codexDir())).toContain('pdf')
    const text = await runCli(['deploy', '--to', 'codex', '--library', lib, '--dry-run'])
    expect(text.stdout).toMatch(/Disabled for this target \(not deployed\): runbook — skillbench enable NAME --to codex/)
  })
})

describe('deploy profiles', () => {
  it('"backend" to a Claude Code project, everything but "experimental" to Codex; kept in the library', async () => {
    const a = await runCli(['profile', 'set', 'backend', '--to', 'claude-project:~/api', '--skill', 'tag:backend', '--library', lib])
    expect(a.stderr).toBe('')
    const b = await runCli(['profile', 'set', 'everyday', '--to', 'codex', '--except', 'tag:experimental', '--library', lib])
    expect([a.code, b.code]).toEqual([0, 0])
    const file = JSON.parse(fs.readFileSync(path.join(lib, DEPLOY_CONFIG_FILE), 'utf8')) as { profiles: Record<string, unknown> }
    expect(file.profiles).toEqual({ backend: { targets: ['claude-project:~/api'], skills: ['tag:backend'], except: [] }, everyday: { targets: ['codex'], skills: [], except: ['tag:experimental'] } })

    const run = await runCli(['deploy', '--profile', 'backend', '--library', lib, '--json'])
    expect(run.stderr).toBe('')
    const out = JSON.parse(run.stdout) as { profile: string; deploys: DeployResult[] }
    expect(out.profile).toBe('backend')
    expect(out.deploys.map((d) => d.target.spec)).toEqual(['claude-project:~/api'])
    expect(folders(apiDir())).toEqual(['api-errors', 'sql-tuning'])
    await runCli(['deploy', '--profile', 'everyday', '--library', lib])
    expect(folders(codexDir())).toEqual(['api-errors', 'pdf', 'runbook', 'sql-tuning'])

    // the profile changes: what it no longer takes leaves the target (placed copies only), a user's folder stays
    fs.mkdirSync(path.join(apiDir(), 'mine'), { recursive: true })
    fs.writeFileSync(path.join(apiDir(), 'mine', 'SKILL.md'), skill('mine', 'The user’s own.'))
    await setDeployProfile(lib, 'backend', { targets: ['claude-project:~/api'], skills: ['sql-tuning', 'collection:ops'], except: [] }, ctx())
    const moved = await deploy({ library: lib, to: 'claude-project:~/api', profile: 'backend', cwd: tmp, env })
    expect(moved.profile).toBe('backend')
    expect(folders(apiDir())).toEqual(['mine', 'runbook', 'sql-tuning'])

    const list = await runCli(['profile', 'list', '--library', lib])
    expect(list.stdout).toMatch(/backend {2}→ claude-project:~\/api {2}\(skills: sql-tuning, collection:ops\)/)
    expect(list.stdout).toMatch(/everyday {2}→ codex {2}\(skills: \* \(all\); except: tag:experimental\)/)
    const show = await runCli(['profile', 'show', 'everyday', '--library', lib])
    expect(show.stdout).toMatch(/→ codex .*\n {2}4 skill\(s\): api-errors, pdf, runbook, sql-tuning\n {2}Codex: \d+ of about 8000 characters/)
    const bad = await runCli(['deploy', '--profile', 'nope', '--library', lib])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/no deploy profile "nope"/)
    const badTarget = await runCli(['profile', 'set', 'x', '--to', 'cursor:/x', '--library', lib])
    expect(badTarget.code).toBe(1)
    expect(badTarget.stderr).toMatch(/unknown target "cursor:\/x"/)
    await setDeployProfile(lib, 'everyday', null, ctx())
    expect(Object.keys((await readDeployConfig(fs.realpathSync(lib))).profiles)).toEqual(['backend'])
  })

  it('over the budget, the report per profile names what to disable, least used first from the usage index', async () => {
    for (let i = 0; i < 30; i++) write(`long-${String(i).padStart(2, '0')}/SKILL.md`, skill(`long-${String(i).padStart(2, '0')}`, `${'Describes a long procedure in words. '.repeat(8)}${i}`, ['bulk']))
    const opened = await openLibrary(lib)
    const ids = new Map((await opened.list()).skills.map((s) => [s.name, s.skill_id]))
    // the library's recorded uses (what the usage index reads first): every bulk skill used, except long-07 and long-21
    const now = Date.now()
    const lines = [...ids].filter(([n]) => n?.startsWith('long-') && n !== 'long-07' && n !== 'long-21').map(([, id], i) => JSON.stringify({ t: 'use', ids: [id], at: new Date(now - i * 1000).toISOString(), via: 'cli' }))
    fs.mkdirSync(path.join(lib, '.skillbench'), { recursive: true })
    fs.writeFileSync(path.join(lib, '.skillbench', 'usage.jsonl'), lines.join('\n') + '\n')
    await setDeployProfile(lib, 'bulk', { targets: ['codex'], skills: ['tag:bulk'], except: [] }, ctx())
    const show = await runCli(['profile', 'show', 'bulk', '--library', lib, '--json'])
    expect(show.stderr).toBe('')
    const r = (JSON.parse(show.stdout) as { targets: DeployResult[] }).targets[0]!
    expect(r.budget.level).toBe('over')
    // never used first (of those, the longer listing first: long-21's description is one character longer)
    expect(r.budget.suggest!.slice(0, 2).map((s) => [s.name, s.uses])).toEqual([
      ['long-21', 0],
      ['long-07', 0]
    ])
    expect(r.budget.suggest!.slice(2).every((s) => s.uses >= 1)).toBe(true)
    const rest = r.budget.chars - r.budget.suggest!.reduce((n, s) => n + s.chars, 0)
    expect(rest).toBeLessThanOrEqual(8000)
    expect(rest + r.budget.suggest!.at(-1)!.chars).toBeGreaterThan(8000) // no more than needed
    const text = await runCli(['profile', 'show', 'bulk', '--library', lib])
    expect(text.stdout).toMatch(/over the budget.*Least used first, disabling long-21 \(0 uses, \d+ chars\), long-07 \(0 uses/)
    expect(text.stdout).toMatch(/skillbench disable long-21 long-07 .* --to codex/)
    expect(fs.existsSync(codexDir())).toBe(false) // show is a dry run
  })
})

describe('several processes at once', () => {
  it('disables, enables and profile changes from four processes all stick; two profile deploys into one folder agree', async () => {
    const results = await Promise.all([
      runCli(['disable', 'pdf', '--to', 'codex', '--library', lib]),
      runCli(['disable', 'runbook', '--to', 'codex', '--library', lib]),
      runCli(['profile', 'set', 'backend', '--to', 'codex', '--skill', 'tag:backend', '--skill', 'pdf', '--library', lib]),
      runCli(['disable', 'sql-tuning', '--to', 'claude-project:~/api', '--library', lib])
    ])
    expect(results.map((r) => [r.code, r.stderr])).toEqual([
      [0, ''],
      [0, ''],
      [0, ''],
      [0, '']
    ])
    const config = await readDeployConfig(fs.realpathSync(lib))
    expect(config.disabled).toEqual({ codex: ['pdf', 'runbook'], 'claude-project:~/api': ['sql-tuning'] })
    expect(Object.keys(config.profiles)).toEqual(['backend'])
    const [x, y] = await Promise.all([runCli(['deploy', '--profile', 'backend', '--library', lib, '--json']), runCli(['deploy', '--profile', 'backend', '--library', lib, '--json'])])
    expect([x.code, y.code, x.stderr, y.stderr]).toEqual([0, 0, '', ''])
    const written = [x, y].map((r) => (JSON.parse(r.stdout) as { deploys: DeployResult[] }).deploys[0]!.counts.written).sort()
    expect(written).toEqual([0, 2]) // one wrote both, the other found them in sync
    expect(folders(codexDir())).toEqual(['api-errors', 'sql-tuning'])
  })
})

/**
 * Real public skill collections (../shared/data/real/skills: anthropics/skills, obra/superpowers, openai/skills,
 * ComposioHQ/awesome-claude-skills), each committed into a local bare repository, installed, updated and deployed.
 * Figures are printed for the report; skipped where the data is absent.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deploy } from '../../src/main/deploy/run'
import { installFromSource, type InstallReport } from '../../src/main/sources/install'
import { updateFromSources } from '../../src/main/sources/update'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'
import { makeRepo, type TestRepo } from './git-repo'

const COLLECTIONS = ['anthropics_skills', 'obra_superpowers', 'openai_skills', 'composiohq_awesome-claude-skills'] as const

function skillMdCount(dir: string): number {
  let n = 0
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name))
      else if (e.name === 'SKILL.md' && d !== dir) n++
    }
  }
  walk(dir)
  return n
}

describe.skipIf(!HAS_REAL_DATA)('real skill collections from git', () => {
  let tmp: string
  const repos = new Map<string, TestRepo>()
  const reports = new Map<string, InstallReport>()
  let env: NodeJS.ProcessEnv

  beforeAll(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-real-')))
    for (const name of COLLECTIONS) {
      const repo = makeRepo(`sb-real-${name.slice(0, 12)}-`)
      fs.cpSync(realPath('skills', name), repo.work, { recursive: true })
      repo.commit({}, `import ${name}`)
      repos.set(name, repo)
      env = { ...repo.env, SKILLBENCH_CACHE_DIR: path.join(tmp, 'cache'), SKILLBENCH_HOME: path.join(tmp, 'home') }
    }
  }, 120_000)

  afterAll(() => {
    for (const r of repos.values()) r.cleanup()
    fs.rmSync(tmp, { recursive: true, force: true })
  })

  it.each(COLLECTIONS)('installs %s: every SKILL.md is installed or refused with its reason', async (name) => {
    const lib = path.join(tmp, `lib-${name}`)
    const report = await installFromSource({ library: lib, source: repos.get(name)!.url, cwd: tmp, env })
    reports.set(name, report)
    const total = skillMdCount(realPath('skills', name))
    expect(report.installed.length + report.skipped.length).toBe(total)
    for (const s of report.skipped) expect(s.reason).toMatch(/fails validation|has the same name|points outside|larger than|does not parse/)
    for (const s of report.installed) expect(fs.existsSync(path.join(lib, s.path))).toBe(true)
    const reasons = new Map<string, number>()
    for (const s of report.skipped) {
      const key = s.reason.replace(/^[^:]+: /, '').replace(/"[^"]*"/g, '"…"').slice(0, 70)
      reasons.set(key, (reasons.get(key) ?? 0) + 1)
    }
    console.log(`[real] install ${name}: ${total} SKILL.md → ${report.installed.length} installed, ${report.skipped.length} refused ${JSON.stringify(Object.fromEntries(reasons))}`)
    // anthropics, superpowers and openai follow the rules (a long description or extra keys are kept, not refused)
    if (name !== 'composiohq_awesome-claude-skills') expect(report.skipped).toEqual([])
  })

  it('an upstream edit of one real skill becomes exactly one update proposal', async () => {
    const repo = repos.get('obra_superpowers')!
    const lib = path.join(tmp, 'lib-obra_superpowers')
    const target = reports.get('obra_superpowers')!.installed[0]!
    const file = path.join(repo.work, target.source.path, 'SKILL.md')
    fs.appendFileSync(file, '\n## Added upstream\n\nOne more step.\n')
    repo.commit({}, 'edit one skill')
    const report = await updateFromSources({ library: lib, cwd: tmp, env })
    expect(report.failed).toEqual([])
    expect(report.proposals.map((p) => p.name)).toEqual([target.name])
    expect(report.unchanged.length).toBe(report.checked - 1)
  })

  it('deploys each collection into Codex\'s folder and sizes its list against the 8,000-character budget', async () => {
    const figures: string[] = []
    for (const name of COLLECTIONS) {
      const lib = path.join(tmp, `lib-${name}`)
      const codexHome = path.join(tmp, `codex-${name}`)
      const r = await deploy({ library: lib, to: 'codex', cwd: tmp, env: { ...env, CODEX_HOME: codexHome } })
      expect(r.counts.written).toBe(reports.get(name)!.installed.length)
      const again = await deploy({ library: lib, to: 'codex', cwd: tmp, env: { ...env, CODEX_HOME: codexHome } })
      expect(again.journal_id).toBeNull()
      figures.push(`${name}: ${r.counts.written} skills, ${r.budget.chars} chars = ${r.budget.percent}% (${r.budget.level})`)
      if (r.budget.level === 'over') expect(r.warnings.join('\n')).toContain('over the budget')
    }
    console.log(`[real] deploy to codex: ${figures.join('; ')}`)
    expect(figures.find((f) => f.startsWith('composiohq'))).toMatch(/\(over\)$/)
  }, 300_000)
})

/**
 * Cleanup needs evidence (issue 36): a skill is called unused only over days something watched the library's skills
 * being used, counted from when it arrived (its front matter's created_at, never a file time). Crafted libraries of
 * both layouts with real files, the ledger as the tools write it, and the CLI on a copy of a real public collection.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { CleanupCoverage, Proposal, UsageReport } from '../../src/shared/types'
import type { CliIo } from '../../src/main/cli/common'
import { main } from '../../src/main/cli/index'
import { curateLibrary, openForCuration } from '../../src/main/curate/service'
import { collectUsage } from '../../src/main/usage/service'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'
import { makeLibrary, snapshot, tempDir } from './fixtures'

const NOW = new Date('2026-12-02T12:00:00Z')
const DAY = 86_400_000
let dirs: string[] = []
afterEach(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
  dirs = []
})

/** Naive local ISO, as the ledger and AGIAgent write times. */
function local(ms: number): string {
  const d = new Date(ms)
  const p = (n: number): string => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.000000`
}

/** SKILL.md folders; `created` (days before NOW) puts a creation date in metadata.skillbench, else only the file dates it. */
function skillMdLibrary(skills: { name: string; body: string; created?: number }[], fileDaysAgo = 258): string {
  const dir = tempDir('cleanup-md')
  dirs.push(dir)
  const old = (NOW.getTime() - fileDaysAgo * DAY) / 1000
  for (const s of skills) {
    const meta = s.created === undefined ? '' : `metadata:\n  skillbench:\n    created_at: '${local(NOW.getTime() - s.created * DAY)}'\n`
    const file = path.join(dir, s.name, 'SKILL.md')
    fs.mkdirSync(path.dirname(file))
    fs.writeFileSync(file, `---\nname: ${s.name}\ndescription: Use when you need ${s.name.replace(/-/g, ' ')}\n${meta}---\n\n# ${s.name}\n\n${s.body}\n`)
    // file times as a git checkout of an old collection gives them: old, and no evidence of anything
    fs.utimesSync(file, old, old)
  }
  return dir
}

const DISTINCT = [
  { name: 'csv-summary', body: 'Read the CSV with pandas, group by month and write summary.md with the totals.' },
  { name: 'docker-deploy', body: 'Build the image, push it to the registry, run docker compose up -d and check /health.' },
  { name: 'haiku-writer', body: 'Write three lines of five, seven and five syllables about the season named.' },
  { name: 'git-branch-cleanup', body: 'List merged branches with git branch --merged and delete them except main.' },
  { name: 'pdf-invoice', body: 'Fill the invoice template with reportlab and save it as a PDF named by the invoice number.' }
]

/** Writes `.skillbench/usage.jsonl` as query_skill does: one `use` line per query. */
function writeLedger(dir: string, uses: { ids: string[]; daysAgo: number }[]): void {
  fs.mkdirSync(path.join(dir, '.skillbench'), { recursive: true })
  const lines = uses.map((u) => JSON.stringify({ t: 'use', ids: u.ids, at: local(NOW.getTime() - u.daysAgo * DAY), via: 'mcp' }))
  fs.writeFileSync(path.join(dir, '.skillbench', 'usage.jsonl'), lines.join('\n') + '\n')
}

/** The plan of a library with the usage the CLI would read (no log folders here: the ledger only). */
async function curated(dir: string): Promise<{ proposals: Proposal[]; cleanup: CleanupCoverage; usage: UsageReport; ids: Map<string, string> }> {
  const opened = await openForCuration(dir)
  const skills = (await opened.library.list()).skills.filter((s) => !s.legacy)
  const usage = await collectUsage({ root: opened.root, skills, sources: [], now: NOW })
  const plan = await curateLibrary(opened, { now: NOW, usage })
  return { proposals: plan.proposals, cleanup: plan.cleanup!, usage, ids: new Map(skills.map((s) => [s.title, s.skill_id])) }
}

const cleanups = (ps: readonly Proposal[]): string[] => ps.filter((p) => p.kind === 'cleanup').map((p) => p.members[0]!.title).sort()

describe('cleanup needs evidence', () => {
  it('a collection dated only by old file times, with an empty ledger, has nothing proposed for retirement', async () => {
    const dir = skillMdLibrary(DISTINCT)
    const before = snapshot(dir)
    const { proposals, cleanup, usage } = await curated(dir)
    expect(usage.sources).toEqual([{ kind: 'ledger', dir: fs.realpathSync(dir), tasks: 0 }])
    expect(cleanups(proposals)).toEqual([])
    expect(cleanup).toEqual({ sources: [], days: 30, judged: 0, not_judged: { arrival_unknown: 5, not_observed: 0, too_short: 0 } })
    expect(snapshot(dir)).toEqual(before)
  })

  it('dated by their front matter but watched by nothing: still nothing proposed, and the plan says why', async () => {
    const dir = skillMdLibrary(DISTINCT.map((s) => ({ ...s, created: 200 })))
    const { proposals, cleanup } = await curated(dir)
    expect(cleanups(proposals)).toEqual([])
    expect(cleanup.not_judged).toEqual({ arrival_unknown: 0, not_observed: 5, too_short: 0 })
  })

  it("the ledger's recorded queries watch from their first one: 40 days judge the unqueried skills, the card says which source covered which days", async () => {
    const dir = skillMdLibrary(DISTINCT.map((s) => ({ ...s, created: 200 })))
    const ids = await (async () => (await curated(dir)).ids)()
    writeLedger(dir, [
      { ids: [ids.get('csv-summary')!], daysAgo: 40 },
      { ids: [ids.get('docker-deploy')!, ids.get('csv-summary')!], daysAgo: 5 }
    ])
    const { proposals, cleanup } = await curated(dir)
    expect(cleanups(proposals)).toEqual(['git-branch-cleanup', 'haiku-writer', 'pdf-invoice'])
    const haiku = proposals.find((p) => p.kind === 'cleanup' && p.members[0]!.title === 'haiku-writer')!
    const from = new Date(Date.parse(local(NOW.getTime() - 40 * DAY))).toISOString()
    expect(haiku.evidence).toMatchObject({ observed_from: from, observed_days: 40, observed_by: [{ kind: 'ledger', dir: '', from }], usage_checked: true, uses: 0 })
    expect(haiku.reason).toBe(
      `not used by any agent in the 40 days watched since it arrived on ${local(NOW.getTime() - 200 * DAY).slice(0, 10)} (at least 30 needed); watched by Skillbench's recorded queries since ${from.slice(0, 10)}; moves to the legacy folder (restorable)`
    )
    expect(cleanup).toMatchObject({ sources: [{ kind: 'ledger', dir: '', from, uses: 3 }], judged: 3 })
  })

  it('a ledger that began 10 days ago is too short a watch: nothing is proposed', async () => {
    const dir = skillMdLibrary(DISTINCT.map((s) => ({ ...s, created: 200 })))
    const ids = (await curated(dir)).ids
    writeLedger(dir, [{ ids: [ids.get('csv-summary')!], daysAgo: 10 }])
    const { proposals, cleanup } = await curated(dir)
    expect(cleanups(proposals)).toEqual([])
    expect(cleanup.not_judged.too_short).toBe(4)
  })

  it("an AGIAgent library: the seed's 30-day rule holds once its agents are seen keeping fetch_count, not before", async () => {
    const created = local(NOW.getTime() - 90 * DAY)
    const skills = DISTINCT.map((s, i) => ({ id: String(1_780_000_001 + i), title: s.name, body: s.body, created }))
    const untracked = makeLibrary(skills)
    dirs.push(untracked)
    const none = await curated(untracked)
    expect(cleanups(none.proposals)).toEqual([])
    expect(none.cleanup.not_judged.not_observed).toBe(5)

    const tracked = makeLibrary(skills.map((s, i) => (i === 0 ? { ...s, fetch: 3, lastUsed: local(NOW.getTime() - 2 * DAY) } : s)))
    dirs.push(tracked)
    const seed = await curated(tracked)
    expect(cleanups(seed.proposals)).toEqual(['docker-deploy', 'git-branch-cleanup', 'haiku-writer', 'pdf-invoice'])
    expect(seed.cleanup.sources.map((s) => s.kind)).toEqual(['fetch_count'])
    const p = seed.proposals.find((x) => x.kind === 'cleanup')!
    expect(p.reason).toMatch(/^not used by any agent in the 90 days watched since it arrived on .*watched by fetch_count kept by the agents' query_skill since /)
  })

  it('a skill made 10 days ago in a watched library is not judged yet', async () => {
    const skills = [
      { id: '1780000101', title: 'Queried often', body: DISTINCT[0]!.body, created: local(NOW.getTime() - 90 * DAY), fetch: 7 },
      { id: '1780000102', title: 'Made last week', body: DISTINCT[1]!.body, created: local(NOW.getTime() - 10 * DAY) }
    ]
    const dir = makeLibrary(skills)
    dirs.push(dir)
    const { proposals, cleanup } = await curated(dir)
    expect(cleanups(proposals)).toEqual([])
    expect(cleanup.not_judged.too_short).toBe(1)
  })
})

function cliIo(env: NodeJS.ProcessEnv) {
  const out = { stdout: '', stderr: '' }
  const io: CliIo = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), isTTY: false, cwd: process.cwd(), env, signal: new AbortController().signal }
  return { io, out }
}

describe.skipIf(!HAS_REAL_DATA)('a real public collection nothing has observed', () => {
  it('`skillbench curate` on a copy of the Composio collection, file times 8 months old and no logs: no cleanup proposal', async () => {
    // copied (the real data is read-only and curate writes its plan), with every file dated as an old checkout
    const dir = tempDir('composio')
    dirs.push(dir)
    fs.cpSync(realPath('skills', 'composiohq_awesome-claude-skills'), dir, { recursive: true })
    const old = (Date.now() - 240 * DAY) / 1000
    const walk = (d: string): void => {
      fs.chmodSync(d, 0o755)
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const abs = path.join(d, e.name)
        if (e.isDirectory()) walk(abs)
        else if (e.isFile()) {
          fs.chmodSync(abs, 0o644)
          fs.utimesSync(abs, old, old)
        }
      }
    }
    walk(dir)
    const home = tempDir('empty-home')
    dirs.push(home)
    const r = cliIo({ HOME: home, SKILLBENCH_HOME: home, XDG_CACHE_HOME: path.join(home, 'cache') })
    expect(await main(['curate', '--library', dir, '--json'], r.io)).toBe(0)
    const plan = JSON.parse(r.out.stdout) as { skills_loaded: number; proposals: Proposal[]; cleanup: CleanupCoverage }
    expect(plan.skills_loaded).toBeGreaterThan(850)
    expect(plan.proposals.filter((p) => p.kind === 'cleanup')).toEqual([])
    expect(plan.cleanup.sources).toEqual([])
    expect(plan.cleanup.judged).toBe(0)
    expect(plan.cleanup.not_judged.arrival_unknown).toBeGreaterThan(500)
    console.log(`[cleanup evidence] Composio copy: ${plan.skills_loaded} skills, ${plan.proposals.filter((p) => p.kind === 'cleanup').length} cleanup proposals, ${plan.cleanup.not_judged.arrival_unknown} dated only by their files`)
  }, 180_000)
})

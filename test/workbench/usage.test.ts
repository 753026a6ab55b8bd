/**
 * `usage.get` in the workbench (issue 14): every configured source — the data root given at start, the session
 * folders found under the home folder and the ones added by hand — and the library's ledger; and curation
 * started from the app reads it first.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ApiEvent, CurateSummary, JobInfo, LibraryInfo, SessionSourceInfo } from '../../src/shared/api'
import type { UsageReport } from '../../src/shared/types'
import { IDS, writeAgiRoot, writeClaudeSession, writeCodexRollout, writeLedger, writeLibrary, writeSynapseSession } from '../usage/fixtures'
import { benchesDisposedAfterEach, tempDir } from './helpers'

const bench = benchesDisposedAfterEach()

/** A data root whose user alice holds the crafted library, with its tasks. */
function usageRoot(prefix: string): { base: string; root: string; lib: string } {
  const base = fs.realpathSync(tempDir(prefix))
  const root = path.join(base, 'root')
  const lib = path.join(root, 'alice', 'general', 'experience')
  writeLibrary(lib)
  writeAgiRoot(root)
  return { base, root, lib }
}

describe('usage.get', () => {
  it('reads the data roots, the detected and added session folders and the ledger; refuses an unlisted library', async () => {
    const { base, root, lib } = usageRoot('usage-wb')
    writeLedger(lib)
    const home = path.join(base, 'home')
    writeClaudeSession(path.join(home, '.claude', 'projects'))
    writeCodexRollout(path.join(home, '.codex', 'sessions'), lib)
    const synapse = path.join(base, 'synapse')
    writeSynapseSession(synapse)
    const b = await bench({ env: { SKILLBENCH_HOME: home } }, root)
    await b.call<SessionSourceInfo[]>('sessions.add', { source: 'synapse', path: synapse })
    const libs = await b.call<LibraryInfo[]>('libraries.list')
    const library = libs.find((l) => l.user === 'alice')!.path

    const report = await b.call<UsageReport>('usage.get', { library })
    expect(report.sources.map((s) => [s.kind, s.tasks])).toEqual([
      ['agiagent', 5],
      ['claude', 8],
      ['codex', 6],
      ['synapse', 1],
      ['ledger', 3]
    ])
    const pdf = report.skills.find((s) => s.name === 'pdf-report')!
    expect([pdf.uses, pdf.completed, pdf.interrupted, pdf.corrected]).toEqual([3, 1, 1, 1])
    expect(report.skills.find((s) => s.name === 'brainstorming')!.tasks.map((t) => t.source).sort()).toEqual(['claude', 'synapse'])
    // each task says where its trace opens
    const claudeTask = pdf.tasks.find((t) => t.source === 'claude')!
    expect(claudeTask).toMatchObject({ task: 'session-usage#1', origin: path.join(home, '.claude', 'projects') })
    const agiTask = pdf.tasks.find((t) => t.source === 'agiagent')!
    expect(agiTask).toMatchObject({ task: 'output_20261120_121500', origin: b.root, path: path.join(b.root, 'alice', 'output_20261120_121500') })
    expect(report.skills.find((s) => s.skill_id === IDS.calculator)!.uses).toBe(4)

    // reading is all it does: the ledger, the logs and the skills are untouched
    expect(fs.readFileSync(path.join(lib, '.skillbench', 'usage.jsonl'), 'utf8')).toMatch(/"via":"cli"/)
    const failed = await b.wb.dispatch('usage.get', { library: '/not/listed' })
    expect(failed.ok).toBe(false)
  })

  it('curation started in the app reads usage first: cleanup spares what agents used', async () => {
    const { base, root } = usageRoot('usage-wb-curate')
    const b = await bench({ env: { SKILLBENCH_HOME: path.join(base, 'empty-home') } }, root)
    const library = (await b.call<LibraryInfo[]>('libraries.list')).find((l) => l.user === 'alice')!.path
    const job = await b.call<JobInfo>('curate.start', { library })
    await b.wb.waitForJob(job.jobId)
    const progress = b.events.filter((e): e is Extract<ApiEvent, { type: 'job.progress' }> => e.type === 'job.progress' && e.progress.jobId === job.jobId)
    expect(progress[0]!.progress.stage).toBe('usage')
    const done = b.events.find((e): e is Extract<ApiEvent, { type: 'job.done' }> => e.type === 'job.done' && e.jobId === job.jobId)!
    const plan = (done.result as CurateSummary).plan
    const cleaned = plan.proposals.filter((p) => p.kind === 'cleanup').map((p) => p.members[0]!.title)
    // the calculator (queried and read by alice's tasks) and the joke (its file printed) were used: only the old one goes.
    // It is judged because alice's tasks call query_skill: her agents keep fetch_count, the seed's 30-day rule applies (issue 36)
    expect(cleaned).toEqual(['Old unused'])
    const evidence = plan.proposals.find((p) => p.kind === 'cleanup')!.evidence
    expect(evidence).toMatchObject({ usage_checked: true, uses: 0 })
    expect((evidence.observed_by as { kind: string }[]).map((o) => o.kind)).toContain('fetch_count')
    expect(plan.cleanup!.sources.map((s) => s.kind)).toEqual(expect.arrayContaining(['fetch_count', 'agiagent']))
  })
})

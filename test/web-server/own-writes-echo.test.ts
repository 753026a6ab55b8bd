/**
 * The web server's file watcher and the app's own writes, with real processes: `skillbench serve` on a copy of a
 * library, its event stream read as the page reads it (SSE), outside writes made by other processes.
 * - A change made through the API (rate, edit, retire, restore, accept a proposal) comes back as no
 *   `files.changed` for the files it wrote. "Nothing came" is never a sleep: after each change another process
 *   writes a fence file; once the fence is reported, every notification of the change's writes was handled before
 *   it (one watcher, handled in order), so the events up to there are all the change produced.
 * - Another process writing the same files right after the app's write is reported.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import type http from 'node:http'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiEvent, JobInfo, LibraryInfo, SkillDocument, SkillListResult } from '../../src/shared/api'
import type { CurationPlan } from '../../src/shared/types'
import { followEvents, PROJECT, serve, type Served } from '../e2e/serve'
import { tempDir } from '../workbench/helpers'

let served: Served
let base: string
let token: string
let library: string
const events: ApiEvent[] = []
let stream: http.ClientRequest

async function api<T>(method: string, input: unknown): Promise<T> {
  const res = await fetch(`${base}api/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-skillbench-token': token }, body: JSON.stringify(input) })
  const body = (await res.json()) as T & { error?: unknown }
  if (!res.ok) throw new Error(`${method}: ${JSON.stringify(body)}`)
  return body
}

/** Resolves with the first event (from `from` on) that `pred` accepts; fails after `ms`. */
async function waitFor(pred: (e: ApiEvent) => boolean, from = 0, ms = 20_000): Promise<ApiEvent> {
  const deadline = Date.now() + ms
  for (;;) {
    const hit = events.slice(from).find(pred)
    if (hit) return hit
    if (Date.now() > deadline) throw new Error(`no such event in ${ms} ms; seen: ${JSON.stringify(events.slice(from))}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

const changed = (e: ApiEvent): string[] => (e.type === 'files.changed' && e.library === library ? e.paths : [])

/** Another process writes `code` (node -e) with LIB set to the library. */
function outside(code: string): void {
  execFileSync(process.execPath, ['-e', code], { env: { ...process.env, NODE_OPTIONS: '', LIB: library } })
}

let fences = 0
/** Another process writes a new fence file; resolves with every library path reported up to and with it. */
async function pathsUntilFence(from: number): Promise<string[]> {
  const name = `fence-${++fences}.txt`
  outside(`require('fs').writeFileSync(require('path').join(process.env.LIB, ${JSON.stringify(name)}), 'fence')`)
  await waitFor((e) => changed(e).includes(name), from)
  const upTo = events.findIndex((e, i) => i >= from && changed(e).includes(name))
  return events.slice(from, upTo + 1).flatMap(changed).filter((p) => p !== name)
}

beforeAll(async () => {
  const rendererDir = tempDir('renderer')
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>test</title>')
  served = await serve(path.join(PROJECT, 'test', 'fixtures', 'e2e-root'), rendererDir)
  const url = new URL(served.url)
  token = url.searchParams.get('token')!
  base = `${url.origin}/`
  stream = await followEvents(base, token, events)
  library = (await api<LibraryInfo[]>('libraries.list', {})).find((l) => l.exists && l.path.endsWith(path.join('general', 'experience')))!.path
  // the watcher is in place once an outside write is reported
  const deadline = Date.now() + 30_000
  for (;;) {
    try {
      await pathsUntilFence(events.length)
      break
    } catch (err) {
      if (Date.now() > deadline) throw err
    }
  }
}, 90_000)

afterAll(async () => {
  stream?.destroy()
  await served?.stop()
})

describe('the web server reports outside changes, not its own writes', () => {
  it('accepting a curation proposal (a merge: one file rewritten, one retired): no files.changed for what it wrote', async () => {
    const job = await api<JobInfo>('curate.start', { library, llm: 'offline' })
    await waitFor((e) => e.type === 'job.done' && e.jobId === job.jobId, 0, 60_000)
    const plan = await api<CurationPlan>('curate.plan', { library })
    const proposal = plan.proposals[0]
    expect(proposal).toBeDefined()
    const from = events.length
    await api('curate.accept', { library, proposalId: proposal!.id })
    expect(await pathsUntilFence(from)).toEqual([])
  }, 90_000)

  it('a rate, an edit, a retire and a restore through the API: no files.changed for what they wrote', async () => {
    const { skills } = await api<SkillListResult>('skills.list', { library })
    const skill = skills[0]!
    let from = events.length
    await api('skills.rate', { library, skillId: skill.skill_id, rating: 0.9 }) // the file and the usage ledger
    expect(await pathsUntilFence(from)).toEqual([])

    const doc = await api<SkillDocument>('skills.get', { library, skillId: skill.skill_id })
    from = events.length
    await api('skills.save', { library, skillId: skill.skill_id, text: doc.text.replace(/\n*$/, '\n\nOne more line.\n'), baseHash: doc.skill.hash })
    expect(await pathsUntilFence(from)).toEqual([])

    from = events.length
    await api('skills.delete', { library, skillId: skill.skill_id }) // moved to legacy/ (made now)
    expect(await pathsUntilFence(from)).toEqual([])

    from = events.length
    await api('skills.restore', { library, skillId: skill.skill_id })
    expect(await pathsUntilFence(from)).toEqual([])
  }, 60_000)

  it('another process writing the same files right after the app did is reported', async () => {
    const { skills } = await api<SkillListResult>('skills.list', { library })
    const skill = skills[0]!
    const from = events.length
    await api('skills.rate', { library, skillId: skill.skill_id, rating: 0.2 })
    // right after: an agent rewrites the skill file in place and records a use in the ledger
    outside(`const fs = require('fs'), p = require('path')
      const file = p.join(process.env.LIB, ${JSON.stringify(skill.path)})
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8') + '\\nAn agent was here.\\n')
      fs.appendFileSync(p.join(process.env.LIB, '.skillbench', 'usage.jsonl'), '\\n')`)
    await waitFor((e) => changed(e).includes(skill.path), from)
    await waitFor((e) => changed(e).includes('.skillbench/usage.jsonl'), from)

    const from2 = events.length
    await api('skills.rate', { library, skillId: skill.skill_id, rating: 0.4 })
    // right after: an agent replaces the file atomically with one of exactly the same size
    outside(`const fs = require('fs'), p = require('path')
      const file = p.join(process.env.LIB, ${JSON.stringify(skill.path)})
      fs.writeFileSync(file + '.agent-tmp', fs.readFileSync(file))
      fs.renameSync(file + '.agent-tmp', file)`)
    await waitFor((e) => changed(e).includes(skill.path), from2)
  }, 60_000)
})

/**
 * The install / update / deploy methods through the workbench's dispatch (what both transports carry): a
 * file:// repository installed into a data-root library, an update found, a deploy previewed, run, undone from
 * the History like any change, and relative folders refused.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { DeployResult, DeployTargetInfo, InstallResult, UpdateResult } from '../../src/shared/api-deploy'
import type { CurationPlan, JournalEntry } from '../../src/shared/types'
import { makeRepo, skillMd } from '../sources/git-repo'
import { benchesDisposedAfterEach, tempDir } from './helpers'

const bench = benchesDisposedAfterEach()

describe('install, update and deploy through the API', () => {
  it('installs, finds an update, previews and runs a deploy, and undoes it from the History', async () => {
    const repo = makeRepo()
    const home = tempDir('home')
    try {
      repo.commit({ 'pdf/SKILL.md': skillMd('pdf', 'PDFs.', 'Use pypdf.\n') })
      const env = { ...repo.env, SKILLBENCH_HOME: home, SKILLBENCH_CACHE_DIR: path.join(home, 'cache') }
      const b = await bench({ env })
      const library = path.join(b.root, 'alice', 'general', 'experience')
      const installed = await b.call<InstallResult>('sources.install', { library, source: repo.url })
      expect(installed.installed.map((s) => s.path)).toEqual(['pdf/SKILL.md'])
      const listed = await b.call<{ skills: { path: string }[] }>('skills.list', { library })
      expect(listed.skills.map((s) => s.path)).toContain('pdf/SKILL.md')

      repo.commit({ 'pdf/SKILL.md': skillMd('pdf', 'PDFs.', 'Use pypdf 5.\n') })
      const update = await b.call<UpdateResult>('sources.update', { library })
      expect(update.proposals.map((p) => p.name)).toEqual(['pdf'])
      const plan = await b.call<CurationPlan>('curate.plan', { library })
      expect(plan.proposals.filter((p) => p.kind === 'update').map((p) => p.id)).toEqual([update.proposals[0]!.id])

      const targets = await b.call<DeployTargetInfo[]>('deploy.targets', { library })
      expect(targets.map((t) => t.spec)).toEqual(['claude', 'codex', 'gemini', 'opencode'])
      expect(targets[0]!.dir).toBe(path.join(home, '.claude', 'skills'))
      const dry = await b.call<DeployResult>('deploy.preview', { library, to: 'claude' })
      expect(dry.dryRun).toBe(true)
      expect(fs.existsSync(path.join(home, '.claude'))).toBe(false)
      const real = await b.call<DeployResult>('deploy.run', { library, to: 'claude' })
      expect(real.skills.map((s) => s.action)).toEqual(dry.skills.map((s) => s.action))
      expect(fs.existsSync(path.join(home, '.claude', 'skills', 'pdf', 'SKILL.md'))).toBe(true)

      const journal = await b.call<JournalEntry[]>('curate.journal', { library })
      const entry = journal.find((e) => e.id === real.journal_id)!
      expect(entry.kind).toBe('deploy')
      expect(entry.changes.map((c) => c.path)).toContain(path.join(home, '.claude', 'skills', 'pdf', 'SKILL.md'))
      const undone = await b.call<JournalEntry>('curate.undo', { library, entryId: real.journal_id })
      expect(undone.undone_at).toBeTruthy()
      expect(fs.readdirSync(path.join(home, '.claude', 'skills'))).toEqual([])

      const err = await b.call('deploy.run', { library, to: 'relative/folder' }).catch((e: { code: string; message: string }) => e)
      expect(err).toEqual(expect.objectContaining({ code: 'bad_request', message: expect.stringContaining('must be a URL or an absolute folder path') }))
      const bad = await b.call('sources.install', { library, source: 'ftp://example.org/x' }).catch((e: { code: string; message: string }) => e)
      expect(bad).toEqual(expect.objectContaining({ code: 'not_git', message: expect.stringContaining('not a git URL') }))
    } finally {
      repo.cleanup()
      fs.rmSync(home, { recursive: true, force: true })
    }
  })
})

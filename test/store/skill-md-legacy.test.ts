/**
 * Issue 36 point 5: in a SKILL.md library (Claude Code / Codex / Agent Skills folder) retired skills live under
 * `.skillbench/legacy/`, so the folder stays exactly what agents load; an AGIAgent library keeps upstream's
 * `legacy/`; a root `legacy/` left by an older version is still read and restored from. Real files, the store, the
 * review engine (curate accept and undo), the CLI, and two processes retiring and restoring at once.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { curateLibrary, openForCuration } from '../../src/main/curate/service'
import { acceptProposal, restoreSkill, undoApplied } from '../../src/main/review/decisions'
import { openLibrary } from '../../src/main/store/library'
import { cli } from '../concurrency/agents'
import { listFiles, tempDir } from './helpers'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

const DEPLOY = '# Deploy\n\n1. Build the image with docker compose build.\n2. Run docker compose up -d.\n3. Check the logs and the health endpoint.\n'

function skillMd(name: string, description: string, body: string, id?: string): string {
  const meta = id ? `metadata:\n  skillbench:\n    skill_id: '${id}'\n` : ''
  return `---\nname: ${name}\ndescription: ${description}\n${meta}---\n\n${body}`
}

/** A SKILL.md library: `active` folders at the top, `oldLegacy` ones in a root legacy/ as older versions left them. */
function skillMdLibrary(active: string[], oldLegacy: string[] = []): string {
  const dir = fs.realpathSync(tempDir('sb-mdlegacy-'))
  dirs.push(dir)
  const write = (rel: string, name: string): void => {
    fs.mkdirSync(path.join(dir, rel, 'scripts'), { recursive: true })
    fs.writeFileSync(path.join(dir, rel, 'SKILL.md'), skillMd(name, `Use ${name} when working on ${name} tasks.`, `# ${name}\n\nSteps for ${name}.\n`))
    fs.writeFileSync(path.join(dir, rel, 'scripts', 'run.sh'), `echo ${name}\n`)
  }
  for (const n of active) write(n, n)
  for (const n of oldLegacy) write(`legacy/${n}`, n)
  return dir
}

/** Files agents would load: everything outside .skillbench/. */
function visible(dir: string): string[] {
  return listFiles(dir).filter((f) => !f.startsWith('.skillbench/'))
}

describe('retiring in a SKILL.md library keeps the folder what agents load', () => {
  it('the store retires to .skillbench/legacy/<folder> (whole folder, id kept) and restores from there', async () => {
    const dir = skillMdLibrary(['pdf-tables', 'csv-report'])
    // its catalogue lives with the bookkeeping too, and the store keeps it in step
    const { syncSkillIndex, readSkillIndex } = await import('../../src/main/store/skill-index')
    await syncSkillIndex(dir, '.skillbench/index.json')
    const lib = await openLibrary(dir)
    const pdf = (await lib.list()).skills.find((s) => s.name === 'pdf-tables')!
    const moved = await lib.moveToLegacy(pdf.skill_id)
    expect((await readSkillIndex(dir, '.skillbench/index.json'))!.skills.map((s) => s.path)).toEqual(['csv-report'])
    expect(moved).toEqual({ from: 'pdf-tables/SKILL.md', to: '.skillbench/legacy/pdf-tables/SKILL.md' })
    expect(visible(dir)).toEqual(['csv-report/SKILL.md', 'csv-report/scripts/run.sh'])
    expect(fs.readFileSync(path.join(dir, '.skillbench/legacy/pdf-tables/scripts/run.sh'), 'utf8')).toBe('echo pdf-tables\n')
    // listed as retired, by the same id, in this process and in a fresh one
    for (const l of [lib, await openLibrary(dir)]) {
      const all = (await l.list({ includeLegacy: true })).skills
      expect(all.find((s) => s.skill_id === pdf.skill_id)).toMatchObject({ legacy: true, path: '.skillbench/legacy/pdf-tables/SKILL.md' })
      expect((await l.list()).skills.map((s) => s.name)).toEqual(['csv-report'])
    }
    const back = await lib.restore(pdf.skill_id)
    expect(back).toMatchObject({ path: 'pdf-tables/SKILL.md', legacy: false, skill_id: pdf.skill_id })
    expect(visible(dir)).toContain('pdf-tables/scripts/run.sh')
  })

  it('a root legacy/ from an older version: read and restored from, never written to', async () => {
    const dir = skillMdLibrary(['csv-report'], ['old-notes'])
    const before = fs.readFileSync(path.join(dir, 'legacy/old-notes/SKILL.md'), 'utf8')
    const lib = await openLibrary(dir)
    const all = (await lib.list({ includeLegacy: true })).skills
    const old = all.find((s) => s.name === 'old-notes')!
    expect(old).toMatchObject({ legacy: true, path: 'legacy/old-notes/SKILL.md' })
    // a new retirement goes to the new place
    const csv = all.find((s) => s.name === 'csv-report')!
    expect((await lib.moveToLegacy(csv.skill_id)).to).toBe('.skillbench/legacy/csv-report/SKILL.md')
    expect(fs.readdirSync(path.join(dir, 'legacy'))).toEqual(['old-notes'])
    // the old one comes back where it was, with its files and its id (derived from the folder, as before)
    const back = await lib.restore(old.skill_id)
    expect(back).toMatchObject({ path: 'old-notes/SKILL.md', skill_id: old.skill_id, legacy: false })
    expect(fs.readFileSync(path.join(dir, 'old-notes/SKILL.md'), 'utf8')).toContain(before.split('---\n\n')[1]!)
    expect(fs.readFileSync(path.join(dir, 'old-notes/scripts/run.sh'), 'utf8')).toBe('echo old-notes\n')
  })

  it('an AGIAgent library keeps upstream\'s legacy/ for skill_*.md files', async () => {
    const dir = fs.realpathSync(tempDir('sb-agilegacy-'))
    dirs.push(dir)
    fs.writeFileSync(path.join(dir, 'skill_Sort.md'), "---\nskill_id: '1768615161'\ntitle: Sort\nusage_conditions: sorting\nquality_index: 0.5\nfetch_count: 0\nrelated_code: ''\ntask_directories: []\ncreated_at: '2026-01-17T09:59:21.686210'\nupdated_at: '2026-01-17T09:59:21.686210'\nlast_used_at: null\nuser_preferences: ''\n---\n\nSort.\n")
    const lib = await openLibrary(dir)
    expect((await lib.moveToLegacy('1768615161')).to).toBe('legacy/skill_Sort.md')
    expect(fs.existsSync(path.join(dir, '.skillbench/legacy'))).toBe(false)
  })

  it('curation retires a merged member to .skillbench/legacy/, and undo brings every file back', async () => {
    const dir = fs.realpathSync(tempDir('sb-mdmerge-'))
    dirs.push(dir)
    for (const name of ['deploy-compose', 'deploy-compose-stack']) {
      fs.mkdirSync(path.join(dir, name, 'scripts'), { recursive: true })
      fs.writeFileSync(path.join(dir, name, 'SKILL.md'), skillMd(name, 'Deploy with docker compose, check logs and health', DEPLOY))
      fs.writeFileSync(path.join(dir, name, 'scripts', 'run.sh'), 'docker compose up -d\n')
    }
    const before = visible(dir).map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')])
    const opened = await openForCuration(dir)
    const plan = await curateLibrary(opened, { now: new Date('2026-11-23T10:00:00Z') })
    const merge = plan.proposals.find((p) => p.kind === 'merge')!
    expect(merge.changes.filter((c) => c.before === null).map((c) => c.path)).toEqual([expect.stringMatching(/^\.skillbench\/legacy\/deploy-compose(-stack)?\/SKILL\.md$/)])
    await acceptProposal(opened.root, merge.id, 'u')
    expect(fs.existsSync(path.join(dir, 'legacy'))).toBe(false)
    expect(visible(dir).filter((f) => f.endsWith('SKILL.md'))).toHaveLength(1)
    expect(listFiles(dir).filter((f) => f.startsWith('.skillbench/legacy/') && f.endsWith('run.sh'))).toHaveLength(1)
    await undoApplied(opened.root, merge.id, 'u')
    expect(visible(dir).map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')])).toEqual(before)
  })

  it('restore through the review engine is journaled; retiring it again puts it back in .skillbench/legacy/', async () => {
    const dir = skillMdLibrary(['pdf-tables'])
    const lib = await openLibrary(dir)
    const pdf = (await lib.list()).skills[0]!
    await lib.moveToLegacy(pdf.skill_id)
    const opened = await openForCuration(dir)
    const record = await restoreSkill(opened, pdf.skill_id, 'u')
    expect(record.ops).toEqual([expect.objectContaining({ op: 'move', from: '.skillbench/legacy/pdf-tables', to: 'pdf-tables', file: 'SKILL.md' })])
    expect(fs.existsSync(path.join(dir, 'pdf-tables/scripts/run.sh'))).toBe(true)
    // the screens' Undo of a restore retires it again: back under .skillbench/
    expect((await (await openLibrary(dir)).moveToLegacy(pdf.skill_id)).to).toBe('.skillbench/legacy/pdf-tables/SKILL.md')
    expect(fs.existsSync(path.join(dir, 'pdf-tables'))).toBe(false)
    expect(fs.existsSync(path.join(dir, '.skillbench/legacy/pdf-tables/scripts/run.sh'))).toBe(true)
  })
})

describe('two processes retiring and restoring in one SKILL.md library at once', () => {
  it('CLI delete and restore race: every skill is in exactly one place, nothing lost, new retirements under .skillbench/', async () => {
    const active = ['alpha', 'beta', 'gamma']
    const old = ['delta', 'epsilon', 'zeta']
    const dir = skillMdLibrary(active, old)
    const lib = await openLibrary(dir)
    const ids = new Map((await lib.list({ includeLegacy: true })).skills.map((s) => [s.name!, s.skill_id]))
    const run = async (cmd: 'delete' | 'restore', names: string[]): Promise<void> => {
      for (const n of names) {
        const r = await cli([cmd, ids.get(n)!, '--library', dir, '--json'])
        expect(r.code, `${cmd} ${n}: ${r.stderr}`).toBe(0)
      }
    }
    // one process retires the active skills while the other restores the ones an older version retired
    await Promise.all([run('delete', active), run('restore', old)])
    const after = await openLibrary(dir)
    const all = (await after.list({ includeLegacy: true })).skills
    expect(all.filter((s) => !s.legacy).map((s) => s.path).sort()).toEqual(old.map((n) => `${n}/SKILL.md`))
    expect(all.filter((s) => s.legacy).map((s) => s.path).sort()).toEqual(active.map((n) => `.skillbench/legacy/${n}/SKILL.md`))
    for (const n of [...active, ...old]) expect(listFiles(dir).filter((f) => f.endsWith(`${n}/scripts/run.sh`))).toHaveLength(1)
    expect(listFiles(dir).filter((f) => f.startsWith('legacy/'))).toEqual([])

    // both restore the same retired skill at once: one wins, the other is told why, the skill is there once
    const races = await Promise.all([0, 1].map(() => cli(['restore', ids.get('alpha')!, '--library', dir, '--json'])))
    expect(races.map((r) => r.code).sort()).toEqual([0, 1])
    expect(races.find((r) => r.code !== 0)!.stderr).toMatch(/not in legacy|already exists/)
    expect(listFiles(dir).filter((f) => f.endsWith('alpha/SKILL.md'))).toEqual(['alpha/SKILL.md'])
  }, 120_000)
})

describe('backed-up code of a SKILL.md skill', () => {
  it('copy_skill_files puts it under .skillbench/codes/ (an AGIAgent skill keeps codes/), and the code viewer reads it', async () => {
    const { copySkillFiles } = await import('../../src/main/tools/copy-files')
    const { readCodeFile } = await import('../../src/main/workbench/code-files')
    const dir = skillMdLibrary(['pdf-tables'])
    const ws = fs.realpathSync(tempDir('sb-ws-'))
    dirs.push(ws)
    fs.writeFileSync(path.join(ws, 'extract.py'), 'print("tables")\n')
    const lib = await openLibrary(dir)
    const pdf = (await lib.list()).skills[0]!
    const r = await copySkillFiles(lib, pdf.skill_id, ['extract.py'], ws)
    expect(r.status).toBe('success')
    const dest = `.skillbench/codes/task_${pdf.skill_id}/extract.py`
    expect(r.copied).toEqual([dest])
    expect(visible(dir)).toEqual(['pdf-tables/SKILL.md', 'pdf-tables/scripts/run.sh'])
    expect((await lib.get(pdf.skill_id)).related_code).toBe(dest)
    expect((await readCodeFile(dir, dest)).text).toBe('print("tables")\n')
    // the rest of .skillbench stays bookkeeping: not written as a file, not read as code
    await expect(lib.writeRaw('.skillbench/usage.jsonl', 'x', null)).rejects.toThrow(/bookkeeping/)
    await expect(readCodeFile(dir, '.skillbench/usage.jsonl')).rejects.toThrow(/codes/)
  })
})

describe('sync shares retired SKILL.md folders', () => {
  it('the gitignore block un-ignores .skillbench/legacy/; an older block gets just that rule, once', async () => {
    const { gitignoreWithBlock, GITIGNORE_BLOCK } = await import('../../src/main/sync/sync')
    const fresh = gitignoreWithBlock('')!
    expect(fresh.split('\n')).toEqual(expect.arrayContaining(['/.skillbench/*', '!/.skillbench/team/', '!/.skillbench/legacy/']))
    // a library an older version set up: its block lacks the legacy rule
    const older = `node_modules\n\n${GITIGNORE_BLOCK.filter((l) => l !== '!/.skillbench/legacy/').join('\n')}\n`
    const updated = gitignoreWithBlock(older)!
    expect(updated).toBe(`${older}!/.skillbench/legacy/\n`)
    expect(gitignoreWithBlock(updated)).toBeNull()
  })
})

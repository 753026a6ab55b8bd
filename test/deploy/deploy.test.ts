/**
 * `skillbench deploy` into temp folders shaped like each agent's (Claude Code personal and project, Codex with
 * CODEX_HOME, the cross-agent .agents folder, Gemini CLI, OpenCode, any folder): first deploy, re-deploy, retire,
 * drift offered back, unmanaged files untouched, dry run equal to the real run, the metadata budget, links refused,
 * undo, an interrupted deploy rolled back, and two processes deploying into one folder at once.
 */
import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { acceptProposal } from '../../src/main/review/decisions'
import { loadPlan } from '../../src/main/review/plan'
import { readJournal } from '../../src/main/review/journal'
import { deploy, recoverDeploy, undoDeploy } from '../../src/main/deploy/run'
import { MANIFEST_FILE } from '../../src/main/deploy/manifest'
import { fromAgiAgent, parseAgiAgent } from '../../src/main/formats/agiagent'
import { deepEqual } from '../../src/main/formats/model'
import { fromSkillMd, parseSkillMd, validateSkillMd } from '../../src/main/formats/skill-md'
import { openLibrary } from '../../src/main/store/library'
import { StoreError } from '../../src/main/store/types'
import { RECOVERY_LOG_REL } from '../../src/main/review/recovery-log'
import { libraryProblems } from '../../src/main/workbench/library-problems'
import { translateLine } from '../../src/renderer/i18n/messages-errors'

const ROOT = path.resolve(__dirname, '..', '..')
let tmp: string
let home: string
let lib: string
let env: NodeJS.ProcessEnv

const PDF = '---\nname: pdf\ndescription: Work with PDF files. Use when reading or writing PDFs.\nlicense: MIT\n---\n\n# PDF\n\nUse pypdf.\n'
const CSV = '---\nname: csv-tool\ndescription: Summarise CSV files.\n---\n\nRead with pandas.\n'
const AGI = [
  '---',
  'skill_id: "1767000000"',
  'title: 网页抓取的重试与限速',
  'usage_conditions: 抓取网页失败或被限速时',
  'quality_index: 0.6',
  'fetch_count: 2',
  'related_code: ""',
  'task_directories: [output_20260101_000000]',
  'created_at: 2026-01-01T00:00:00.000000',
  'updated_at: 2026-01-01T00:00:00.000000',
  'last_used_at: null',
  'user_preferences: ""',
  '---',
  '',
  '重试三次，每次等待更久。',
  ''
].join('\n')

function write(rel: string, text: string | Buffer, mode?: number): void {
  const abs = path.join(lib, rel)
  fs.mkdirSync(path.dirname(abs), { recursive: true })
  fs.writeFileSync(abs, text)
  if (mode) fs.chmodSync(abs, mode)
}

/** Every file under a folder: relative path → sha256 + inode + mtime (so "untouched" means untouched). */
function stamp(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name
      const abs = path.join(dir, r)
      if (e.isDirectory()) walk(r)
      else if (e.isSymbolicLink()) out[r] = `link:${fs.readlinkSync(abs)}`
      else {
        const st = fs.statSync(abs)
        out[r] = `${crypto.createHash('sha256').update(fs.readFileSync(abs)).digest('hex')}:${st.ino}:${st.mtimeMs}`
      }
    }
  }
  if (fs.existsSync(dir)) walk('')
  return out
}

function claudeDir(): string {
  return path.join(home, '.claude', 'skills')
}

const run = (to: string, extra: Partial<Parameters<typeof deploy>[0]> = {}): ReturnType<typeof deploy> => deploy({ library: lib, to, cwd: tmp, env, by: 'test', ...extra })

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-deploy-')))
  home = path.join(tmp, 'home')
  lib = path.join(tmp, 'library')
  env = { SKILLBENCH_HOME: home, CODEX_HOME: path.join(home, 'codex-home') }
  write('pdf/SKILL.md', PDF)
  write('pdf/scripts/extract.sh', '#!/bin/sh\necho pages\n', 0o755)
  write('pdf/references/api.md', 'The API.\n')
  write('csv-tool/SKILL.md', CSV)
  write('skill_网页抓取的重试与限速.md', AGI)
  // what the person already had in the agent's folder
  fs.mkdirSync(path.join(claudeDir(), 'mine'), { recursive: true })
  fs.writeFileSync(path.join(claudeDir(), 'mine', 'SKILL.md'), '---\nname: mine\ndescription: My own skill.\n---\n\nMine.\n')
  fs.writeFileSync(path.join(claudeDir(), 'README.txt'), 'my notes about my skills\n')
})

afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true })
})

describe('first deploy', () => {
  const TARGETS: [string, (p: string) => string][] = [
    ['claude', () => claudeDir()],
    ['claude-project:PROJECT', (p) => path.join(p, '.claude', 'skills')],
    ['codex', () => path.join(home, 'codex-home', 'skills')],
    ['agents:PROJECT', (p) => path.join(p, '.agents', 'skills')],
    ['gemini', () => path.join(home, '.gemini', 'skills')],
    ['gemini-project:PROJECT', (p) => path.join(p, '.gemini', 'skills')],
    ['opencode', () => path.join(home, '.config', 'opencode', 'skills')],
    ['opencode-project:PROJECT', (p) => path.join(p, '.opencode', 'skills')],
    ['FOLDER', () => path.join(tmp, 'any', 'folder')]
  ]

  it.each(TARGETS)('writes each active skill as <target>/<name>/SKILL.md following the Agent Skills rules (%s)', async (spec, dirOf) => {
    const project = path.join(tmp, 'project')
    const to = spec.replace('PROJECT', project).replace('FOLDER', path.join(tmp, 'any', 'folder'))
    const r = await run(to)
    const dir = dirOf(project)
    expect(r.target.dir).toBe(dir)
    expect(r.skills.map((s) => [s.name, s.action])).toEqual([
      ['csv-tool', 'create'],
      ['pdf', 'create'],
      ['wang-ye-zhua-qu-de-chong-shi-yu-xian-su', 'create']
    ])
    expect(r.journal_id).toMatch(/^[0-9a-z]+-[0-9a-f]{8}$/)
    for (const name of ['csv-tool', 'pdf', 'wang-ye-zhua-qu-de-chong-shi-yu-xian-su']) {
      const record = parseSkillMd(fs.readFileSync(path.join(dir, name, 'SKILL.md'), 'utf8'))
      expect(validateSkillMd(record, { dirName: name }).filter((p) => p.level === 'error')).toEqual([])
    }
    // a valid SKILL.md is copied byte for byte, with its files (the script still executable)
    expect(fs.readFileSync(path.join(dir, 'pdf', 'SKILL.md'), 'utf8')).toBe(PDF)
    expect(fs.readFileSync(path.join(dir, 'pdf', 'references', 'api.md'), 'utf8')).toBe('The API.\n')
    expect(fs.statSync(path.join(dir, 'pdf', 'scripts', 'extract.sh')).mode & 0o111).not.toBe(0)
    // the AGIAgent skill is converted losslessly: reading the deployed copy back gives the very same skill
    const back = fromSkillMd(parseSkillMd(fs.readFileSync(path.join(dir, 'wang-ye-zhua-qu-de-chong-shi-yu-xian-su', 'SKILL.md'), 'utf8')))
    expect(deepEqual(back, fromAgiAgent(parseAgiAgent(AGI)))).toBe(true)
    // the manifest records what was placed, with each file's hash
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST_FILE), 'utf8')) as { skills: Record<string, { files: Record<string, string> }> }
    expect(Object.keys(manifest.skills)).toEqual(['csv-tool', 'pdf', 'wang-ye-zhua-qu-de-chong-shi-yu-xian-su'])
    for (const [name, e] of Object.entries(manifest.skills)) {
      for (const [rel, hash] of Object.entries(e.files)) expect(crypto.createHash('sha256').update(fs.readFileSync(path.join(dir, name, rel))).digest('hex')).toBe(hash)
    }
    // nothing else is left in the target (no lock, no intent)
    expect(fs.readdirSync(dir).filter((n) => n.startsWith('.')).sort()).toEqual([MANIFEST_FILE])
  })

  it('keeps other agents\' top-level keys in a copied SKILL.md; a description over 1024 characters is shortened losslessly', async () => {
    const ext = '---\nname: ext\ndescription: Manual only.\ndisable-model-invocation: true\n---\n\nRun by hand.\n'
    write('ext/SKILL.md', ext)
    const long = `---\nname: long-one\ndescription: ${'word '.repeat(240).trim()}\n---\n\nBody.\n`
    write('long-one/SKILL.md', long)
    await run('claude')
    expect(fs.readFileSync(path.join(claudeDir(), 'ext', 'SKILL.md'), 'utf8')).toBe(ext)
    const copy = parseSkillMd(fs.readFileSync(path.join(claudeDir(), 'long-one', 'SKILL.md'), 'utf8'))
    expect(validateSkillMd(copy, { dirName: 'long-one' }).filter((p) => p.level === 'error')).toEqual([])
    expect(String(copy.frontMatter.description).length).toBeLessThanOrEqual(1024)
    expect(fromSkillMd(copy).description).toBe('word '.repeat(240).trim())
  })

  it('leaves what it did not place untouched, byte for byte, inode and mtime', async () => {
    const before = stamp(claudeDir())
    await run('claude')
    const after = stamp(claudeDir())
    expect(after['mine/SKILL.md']).toBe(before['mine/SKILL.md'])
    expect(after['README.txt']).toBe(before['README.txt'])
  })

  it('reports a folder of the same name it did not place, and leaves it alone', async () => {
    fs.mkdirSync(path.join(claudeDir(), 'pdf'))
    fs.writeFileSync(path.join(claudeDir(), 'pdf', 'SKILL.md'), '---\nname: pdf\ndescription: someone else\'s\n---\n\nx\n')
    const before = stamp(path.join(claudeDir(), 'pdf'))
    const r = await run('claude')
    expect(r.skills.find((s) => s.name === 'pdf')).toEqual(expect.objectContaining({ action: 'unmanaged', why: 'not-ours' }))
    expect(stamp(path.join(claudeDir(), 'pdf'))).toEqual(before)
  })
})

describe('re-deploy, retire, drift', () => {
  it('a re-run writes nothing when nothing changed, and only the changed file when one did', async () => {
    await run('claude')
    const first = stamp(claudeDir())
    const again = await run('claude')
    expect(again.journal_id).toBeNull()
    expect(again.counts).toEqual({ written: 0, updated: 0, removed: 0, unchanged: 3, drifted: 0, left: 0 })
    expect(stamp(claudeDir())).toEqual(first)
    write('pdf/references/api.md', 'The API, version 2.\n')
    const third = await run('claude')
    expect(third.skills.find((s) => s.name === 'pdf')).toEqual(expect.objectContaining({ action: 'update', files: [{ path: 'references/api.md', change: 'update' }] }))
    const now = stamp(claudeDir())
    const changed = Object.keys(now).filter((k) => now[k] !== first[k]).sort()
    expect(changed).toEqual([MANIFEST_FILE, 'pdf/references/api.md'])
  })

  it('--skill deploys only the skills named and leaves every other placed copy as it is', async () => {
    await run('claude')
    write('csv-tool/SKILL.md', CSV.replace('pandas', 'polars'))
    write('pdf/references/api.md', 'The API, version 2.\n')
    const before = stamp(path.join(claudeDir(), 'pdf'))
    const r = await run('claude', { skills: ['csv-tool'] })
    expect(r.skills.map((s) => [s.name, s.action])).toEqual([['csv-tool', 'update']])
    expect(stamp(path.join(claudeDir(), 'pdf'))).toEqual(before)
    await expect(run('claude', { skills: ['no-such-skill'] })).rejects.toThrow(/no active skill named "no-such-skill"/)
    // the id or the library title names a skill too
    expect((await run('claude', { skills: ['1767000000'], dryRun: true })).skills.map((s) => s.name)).toEqual(['wang-ye-zhua-qu-de-chong-shi-yu-xian-su'])
  })

  it('a skill retired in the library is removed from the target only when the deployed copy is unchanged', async () => {
    await run('claude')
    const library = await openLibrary(lib)
    const skills = (await library.list()).skills
    await library.moveToLegacy(skills.find((s) => s.path === 'csv-tool/SKILL.md')!.skill_id)
    await library.moveToLegacy(skills.find((s) => s.path === 'pdf/SKILL.md')!.skill_id)
    fs.appendFileSync(path.join(claudeDir(), 'pdf', 'SKILL.md'), '\nA note the agent added.\n')
    const edited = stamp(path.join(claudeDir(), 'pdf'))
    const r = await run('claude')
    expect(r.skills.find((s) => s.name === 'csv-tool')).toEqual(expect.objectContaining({ action: 'remove', files: [{ path: 'SKILL.md', change: 'remove' }] }))
    expect(r.skills.find((s) => s.name === 'pdf')).toEqual(expect.objectContaining({ action: 'drifted', why: 'retired-drifted' }))
    expect(fs.existsSync(path.join(claudeDir(), 'csv-tool'))).toBe(false)
    expect(stamp(path.join(claudeDir(), 'pdf'))).toEqual(edited)
    expect(r.proposals).toEqual([])
  })

  it('an edit made to a deployed copy stays there and comes back as a learned proposal; once accepted the copy is in sync', async () => {
    await run('claude')
    const deployed = path.join(claudeDir(), 'wang-ye-zhua-qu-de-chong-shi-yu-xian-su', 'SKILL.md')
    fs.writeFileSync(deployed, fs.readFileSync(deployed, 'utf8').replace('重试三次，每次等待更久。', '重试三次，每次等待更久；遇到 429 时读取 Retry-After。'))
    const pdfCopy = path.join(claudeDir(), 'pdf', 'SKILL.md')
    fs.writeFileSync(pdfCopy, PDF.replace('Use pypdf.', 'Use pypdf; for scans run OCR first.'))
    fs.writeFileSync(path.join(claudeDir(), 'pdf', 'references', 'ocr.md'), 'OCR with tesseract.\n')
    const edited = stamp(claudeDir())
    const r = await run('claude')
    expect(r.skills.filter((s) => s.action === 'drifted').map((s) => s.name)).toEqual(['pdf', 'wang-ye-zhua-qu-de-chong-shi-yu-xian-su'])
    expect(stamp(claudeDir())).toEqual(edited) // left in place (the manifest unchanged too)
    expect(r.proposals.map((p) => p.name)).toEqual(['pdf', 'wang-ye-zhua-qu-de-chong-shi-yu-xian-su'])
    const plan = await loadPlan(fs.realpathSync(lib))
    const learned = plan.proposals.filter((p) => p.kind === 'learned')
    expect(learned.map((p) => p.id)).toEqual(r.proposals.map((p) => p.id))
    const agi = learned.find((p) => p.members[0]!.skill_id === '1767000000')!
    expect(agi.changes).toEqual([{ path: 'skill_网页抓取的重试与限速.md', before: AGI, after: AGI.replace('重试三次，每次等待更久。', '重试三次，每次等待更久；遇到 429 时读取 Retry-After。') }])
    const pdf = learned.find((p) => p.members[0]!.path === 'pdf/SKILL.md')!
    expect(pdf.changes).toEqual([
      { path: 'pdf/SKILL.md', before: PDF, after: PDF.replace('Use pypdf.', 'Use pypdf; for scans run OCR first.') },
      { path: 'pdf/references/ocr.md', before: null, after: 'OCR with tesseract.\n' }
    ])
    // a second deploy finds the same proposals waiting, and adds no copies of them
    expect(r.proposals.every((p) => !p.queued)).toBe(true)
    const again = await run('claude')
    expect(again.proposals).toEqual(r.proposals.map((p) => ({ ...p, queued: true })))
    expect(again.skills.filter((s) => s.proposal).every((s) => s.proposalQueued)).toBe(true)
    expect((await loadPlan(fs.realpathSync(lib))).proposals.filter((p) => p.kind === 'learned').length).toBe(2)
    for (const p of learned) await acceptProposal(fs.realpathSync(lib), p.id, 'test')
    const synced = await run('claude')
    expect(synced.skills.map((s) => [s.name, s.action])).toEqual([
      ['csv-tool', 'unchanged'],
      ['pdf', 'adopt'],
      ['wang-ye-zhua-qu-de-chong-shi-yu-xian-su', 'adopt']
    ])
    expect(synced.proposals).toEqual([])
    expect((await run('claude')).counts.unchanged).toBe(3)
  })

  it('dry run equals the real run, and writes nothing anywhere', async () => {
    await run('claude')
    write('csv-tool/SKILL.md', CSV.replace('pandas', 'polars'))
    write('new-one/SKILL.md', '---\nname: new-one\ndescription: A new skill.\n---\n\nNew.\n')
    const library = await openLibrary(lib)
    await library.moveToLegacy((await library.list()).skills.find((s) => s.path === 'pdf/SKILL.md')!.skill_id)
    const copy = path.join(claudeDir(), 'wang-ye-zhua-qu-de-chong-shi-yu-xian-su', 'SKILL.md')
    fs.appendFileSync(copy, '\n补充：先检查网络。\n')
    fs.mkdirSync(path.join(claudeDir(), 'new-one'))
    fs.rmdirSync(path.join(claudeDir(), 'new-one'))
    const target = stamp(claudeDir())
    const state = stamp(path.join(lib, '.skillbench'))
    const dry = await run('claude', { dryRun: true })
    expect(stamp(claudeDir())).toEqual(target)
    expect(stamp(path.join(lib, '.skillbench'))).toEqual(state)
    expect(dry.skills.map((s) => s.action).sort()).toEqual(['create', 'drifted', 'remove', 'update'])
    const real = await run('claude')
    const { journal_id: _j1, dryRun: _d1, ...dryRest } = dry
    const { journal_id: _j2, dryRun: _d2, ...realRest } = real
    expect(realRest).toEqual(dryRest)
    expect(real.journal_id).not.toBeNull()
  })
})

describe('metadata budget', () => {
  function manySkills(n: number): void {
    for (let i = 1; i <= n; i++) {
      const name = `skill-${String(i).padStart(2, '0')}`
      write(`${name}/SKILL.md`, `---\nname: ${name}\ndescription: ${'Describes when to use this skill in detail. '.repeat(9).trim()}\n---\n\nBody.\n`)
    }
  }

  it('reports the size against Codex\'s documented budget and warns before crowding it, and when over it', async () => {
    fs.rmSync(path.join(lib, 'pdf'), { recursive: true })
    fs.rmSync(path.join(lib, 'csv-tool'), { recursive: true })
    fs.rmSync(path.join(lib, 'skill_网页抓取的重试与限速.md'))
    manySkills(17)
    const warn = await run('codex', { dryRun: true })
    expect(warn.budget).toEqual(expect.objectContaining({ limit: 8000, level: 'warn', ours: warn.budget.chars, others: 0 }))
    expect(warn.budget.percent).toBeGreaterThanOrEqual(80)
    expect(warn.warnings.join('\n')).toMatch(/Codex: \d+ of about 8000 characters of skill metadata \(\d+%\) — close to the budget/)
    manySkills(21)
    const over = await run('codex', { dryRun: true })
    expect(over.budget.level).toBe('over')
    expect(over.warnings.join('\n')).toMatch(/over the budget: the agent will shorten descriptions or leave skills out of its list/)
    // skills already in the agent's folder count too; an agent without a documented limit gets the size only
    const gemini = await run('gemini', { dryRun: true })
    expect(gemini.budget).toEqual(expect.objectContaining({ limit: null, level: 'none', percent: null }))
    const small = await run('claude', { skills: ['skill-01'], dryRun: true })
    expect(small.budget.others).toBe('mine'.length + 'My own skill.'.length)
    expect(small.budget.level).toBe('ok')
  })
})

describe('containment, undo, recovery, concurrency', () => {
  it('refuses a target folder that is a symbolic link, and a skill folder that is one', async () => {
    const elsewhere = path.join(tmp, 'elsewhere')
    fs.mkdirSync(elsewhere)
    fs.mkdirSync(path.join(tmp, 'p', '.agents'), { recursive: true })
    fs.symlinkSync(elsewhere, path.join(tmp, 'p', '.agents', 'skills'))
    const err = await run(`agents:${path.join(tmp, 'p')}`).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(StoreError)
    expect((err as StoreError).code).toBe('path_escape')
    expect((err as Error).message).toMatch(/is a symbolic link \(→ .*elsewhere\): refusing to deploy into a folder that leads elsewhere/)
    expect(fs.readdirSync(elsewhere)).toEqual([])
    await run('claude')
    fs.rmSync(path.join(claudeDir(), 'csv-tool'), { recursive: true })
    fs.symlinkSync(elsewhere, path.join(claudeDir(), 'csv-tool'))
    write('csv-tool/SKILL.md', CSV.replace('pandas', 'polars'))
    const r = await run('claude')
    expect(r.skills.find((s) => s.name === 'csv-tool')).toEqual(expect.objectContaining({ action: 'refused', why: 'link' }))
    expect(fs.readdirSync(elsewhere)).toEqual([])
  })

  it('undoes a deploy from the journal, and refuses while a file it wrote was changed since', async () => {
    const before = stamp(claudeDir())
    const first = await run('claude')
    write('csv-tool/SKILL.md', CSV.replace('pandas', 'polars'))
    const second = await run('claude')
    const root = fs.realpathSync(lib)
    // the latest deploy first (the manifest moved on), then the first one: the folder is as it was
    await expect(undoDeploy(root, first.journal_id!, 'test')).rejects.toThrow(/deployed to again since/)
    await undoDeploy(root, second.journal_id!, 'test')
    expect(fs.readFileSync(path.join(claudeDir(), 'csv-tool', 'SKILL.md'), 'utf8')).toBe(CSV)
    fs.appendFileSync(path.join(claudeDir(), 'pdf', 'SKILL.md'), 'edited\n')
    await expect(undoDeploy(root, first.journal_id!, 'test')).rejects.toThrow(/pdf\/SKILL\.md was changed there since/)
    fs.writeFileSync(path.join(claudeDir(), 'pdf', 'SKILL.md'), PDF)
    // through the CLI, as a person would
    const cli = await runCli(['undo', first.journal_id!, '--library', lib, '--json'])
    expect(cli.code).toBe(0)
    expect(JSON.parse(cli.stdout)).toEqual(expect.objectContaining({ status: 'success', undoes: first.journal_id }))
    const after = stamp(claudeDir())
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort())
    expect(after['mine/SKILL.md']).toBe(before['mine/SKILL.md'])
    const kinds = (await readJournal(root)).records.map((r) => `${r.action}:${r.kind}`)
    expect(kinds).toEqual(['apply:deploy', 'apply:deploy', 'undo:deploy', 'undo:deploy'])
  })

  it('rolls back a deploy interrupted before its journal record, at the next deploy', async () => {
    await run('claude')
    const v1 = stamp(claudeDir())
    write('csv-tool/SKILL.md', CSV.replace('pandas', 'polars'))
    // the journal cannot be appended (a folder in its place): the deploy fails after writing the target's files
    const journal = path.join(lib, '.skillbench', 'journal')
    fs.renameSync(journal, `${journal}.keep`)
    fs.mkdirSync(journal)
    await expect(run('claude')).rejects.toThrow()
    expect(fs.existsSync(path.join(claudeDir(), '.skillbench-deploy.tx.json'))).toBe(true)
    fs.rmdirSync(journal)
    fs.renameSync(`${journal}.keep`, journal)
    expect(await recoverDeploy(claudeDir())).toEqual({ state: 'rolled-back' })
    const back = stamp(claudeDir())
    for (const rel of Object.keys(v1)) expect(back[rel]?.split(':')[0]).toBe(v1[rel]!.split(':')[0])
    const r = await run('claude')
    expect(r.skills.find((s) => s.name === 'csv-tool')!.action).toBe('update')
    expect(fs.readFileSync(path.join(claudeDir(), 'csv-tool', 'SKILL.md'), 'utf8')).toContain('polars')
  })

  it('an interrupted deploy rolled back by the next one (a real CLI process) is kept in the library\'s recovery log for the app and said by the CLI; one that cannot be rolled back is kept too', async () => {
    await run('claude')
    write('csv-tool/SKILL.md', CSV.replace('pandas', 'polars'))
    const journal = path.join(lib, '.skillbench', 'journal')
    fs.renameSync(journal, `${journal}.keep`)
    fs.mkdirSync(journal)
    await expect(run('claude')).rejects.toThrow()
    fs.rmdirSync(journal)
    fs.renameSync(`${journal}.keep`, journal)
    const intentId = JSON.parse(fs.readFileSync(path.join(claudeDir(), '.skillbench-deploy.tx.json'), 'utf8')).id as string
    const root = fs.realpathSync(lib)

    const r = await runCli(['deploy', '--library', lib, '--to', 'claude', '--json'])
    expect(r.code).toBe(0)
    const message = `${intentId}: an interrupted deploy into ${claudeDir()} was rolled back; nothing of it stays there`
    const entry = { code: 'deploy.recover_rolled_back', params: { id: intentId, dir: claudeDir() }, message }
    expect(r.stderr.split('\n')).toContain(`skillbench deploy: ${message}`)
    const out = JSON.parse(r.stdout)
    expect(out.recovered).toEqual([entry])
    expect(out.skills.find((s: { name: string }) => s.name === 'csv-tool').action).toBe('update')
    // the library's log, as a transaction's recovery keeps it: the app's banner shows it (en and zh)
    const log = fs.readFileSync(path.join(root, RECOVERY_LOG_REL), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    expect(log).toHaveLength(1)
    expect(log[0]).toMatchObject({ rolled_back: [intentId], lines: [{ message, messageCode: entry.code, params: entry.params }] })
    const shown = await libraryProblems(root)
    expect(shown.problems).toEqual([{ message, messageCode: entry.code, params: entry.params }])
    expect(translateLine(log[0].lines[0], message, 'zh')).toBe(`${intentId}：部署到 ${claudeDir()} 时被中断的操作已回滚，那里没有留下它的任何部分`)

    // interrupted again, and a deployed file changed there since: neither its old nor its new bytes
    write('csv-tool/SKILL.md', CSV.replace('pandas', 'duckdb'))
    fs.renameSync(journal, `${journal}.keep`)
    fs.mkdirSync(journal)
    await expect(run('claude')).rejects.toThrow()
    fs.rmdirSync(journal)
    fs.renameSync(`${journal}.keep`, journal)
    fs.appendFileSync(path.join(claudeDir(), 'csv-tool', 'SKILL.md'), 'edited by the agent\n')
    const failed = await runCli(['deploy', '--library', lib, '--to', 'claude', '--json'])
    expect(failed.code).toBe(1)
    const failure = JSON.parse(failed.stdout)
    expect(failure).toMatchObject({ status: 'error', message_code: 'deploy.rollback_failed' })
    expect(failure.recovered).toBeUndefined() // said once, as the error
    const logged = fs.readFileSync(path.join(root, RECOVERY_LOG_REL), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    expect(logged).toHaveLength(2)
    expect(logged[1]).toMatchObject({ rolled_back: [], lines: [{ message: failure.message, messageCode: 'deploy.rollback_failed', params: failure.params }] })
  }, 60_000)

  it('two processes deploying two libraries into one folder at once never interleave', async () => {
    const lib2 = path.join(tmp, 'library2')
    fs.mkdirSync(path.join(lib2, 'other-skill'), { recursive: true })
    fs.writeFileSync(path.join(lib2, 'other-skill', 'SKILL.md'), '---\nname: other-skill\ndescription: From the second library.\n---\n\nx\n')
    const target = path.join(tmp, 'shared-target')
    const [a, b] = await Promise.all([runCli(['deploy', '--library', lib, '--to', target, '--json']), runCli(['deploy', '--library', lib2, '--to', target, '--json'])])
    expect([a.code, b.code, a.stderr, b.stderr]).toEqual([0, 0, '', ''])
    const manifest = JSON.parse(fs.readFileSync(path.join(target, MANIFEST_FILE), 'utf8')) as { skills: Record<string, { library: string }> }
    expect(Object.keys(manifest.skills).sort()).toEqual(['csv-tool', 'other-skill', 'pdf', 'wang-ye-zhua-qu-de-chong-shi-yu-xian-su'])
    expect(manifest.skills['other-skill']!.library).toBe(fs.realpathSync(lib2))
    // each library sees the other's folder as not its own, and changes nothing on a re-run
    const again = await run(target)
    expect(again.journal_id).toBeNull()
    expect(again.skills.map((s) => s.action)).toEqual(['unchanged', 'unchanged', 'unchanged'])
    expect(fs.readdirSync(target).filter((n) => n.startsWith('.')).sort()).toEqual([MANIFEST_FILE])
  })

  it('prints the plan for people and the same data with --json; --dry-run says "Would deploy"', async () => {
    const dry = await runCli(['deploy', '--library', lib, '--to', 'claude', '--dry-run'])
    expect(dry.code).toBe(0)
    expect(dry.stdout).toMatch(/^Would deploy to Claude Code \(personal\): .*\.claude\/skills\n {2}write {4}csv-tool {2}\(\+SKILL\.md\)\n/)
    expect(dry.stdout).toContain('Claude Code (personal): ')
    // a plain folder is named once
    const folder = path.join(tmp, 'plain-folder')
    const plain = await runCli(['deploy', '--library', lib, '--to', folder, '--dry-run'])
    expect(plain.stdout.split('\n')[0]).toBe(`Would deploy to ${folder}`)
    const json = await runCli(['deploy', '--library', lib, '--to', 'claude', '--json'])
    const out = JSON.parse(json.stdout) as Record<string, unknown>
    expect(Object.keys(out)).toEqual(['target', 'dryRun', 'skills', 'counts', 'budget', 'journal_id', 'proposals', 'warnings', 'findings'])
    const bad = await runCli(['deploy', '--library', lib, '--to', 'cursor:/x'])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(/unknown target "cursor:\/x": use claude, claude-project:PATH, codex, agents:PATH/)
  })
})

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

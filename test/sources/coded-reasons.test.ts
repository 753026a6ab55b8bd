/**
 * What `skillbench update` and `install --locked` say in words, by code beside the words (real local git
 * repositories): an update's notes and "nothing to propose" lines, a source that cannot be fetched, and the skills
 * a lock refuses. The English is exactly what it was; the code and params give the same text, and Chinese by code.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { englishText, type MessageRef } from '../../src/shared/error-codes'
import { messageRefOf } from '../../src/shared/message-match'
import { loadPlan } from '../../src/main/review/plan'
import { installFromSource } from '../../src/main/sources/install'
import { installLocked, LockMismatchError } from '../../src/main/sources/install-locked'
import { updateFromSources } from '../../src/main/sources/update'
import { parseSkillsLock, serializeSkillsLock, SKILLS_LOCK_FILE } from '../../src/main/store/skills-lock'
import { translateLine, translateMessage } from '../../src/renderer/i18n/messages-errors'
import { makeRepo, skillMd, type TestRepo } from './git-repo'

let tmp: string
let env: NodeJS.ProcessEnv
let repo: TestRepo

const PDF = skillMd('pdf', 'Work with PDF files.', '# PDF\n\nUse pypdf.\n')
const CSV = skillMd('csv-tool', 'Summarise CSV files.', 'Read with pandas.\n')

function newLibrary(): string {
  return fs.mkdtempSync(path.join(tmp, 'lib-'))
}

const ref = (x: { messageCode?: unknown; params?: unknown }): MessageRef => ({ messageCode: x.messageCode as MessageRef['messageCode'], params: x.params as MessageRef['params'] })

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-coded-src-')))
  repo = makeRepo()
  env = { ...repo.env, SKILLBENCH_CACHE_DIR: path.join(tmp, 'cache') }
  repo.commit({ 'skills/pdf/SKILL.md': PDF, 'skills/csv-tool/SKILL.md': CSV, 'docs/README.md': 'Not a skill.\n' })
})

afterAll(() => {
  repo.cleanup()
  fs.rmSync(tmp, { recursive: true, force: true })
})

describe('skillbench update by code', () => {
  it("a proposal's notes and an unchanged skill's note: the same English as before, the code beside it, Chinese by code", async () => {
    const lib = newLibrary()
    expect((await installFromSource({ library: lib, source: repo.url, cwd: tmp, env })).installed.length).toBe(2)
    // edited here and upstream on the same front matter key, and a binary file upstream: two notes
    const skill = path.join(lib, 'pdf', 'SKILL.md')
    fs.writeFileSync(skill, fs.readFileSync(skill, 'utf8').replace('description: Work with PDF files.', 'description: Work with PDF files here.'))
    const to = repo.commit({ 'skills/pdf/SKILL.md': PDF.replace('Work with PDF files.', 'Work with PDF files upstream.'), 'skills/pdf/logo.png': { bytes: Buffer.from([0x89, 0x50, 0, 1, 2, 0]) } })

    const report = await updateFromSources({ library: lib, cwd: tmp, env })
    expect(report.failed).toEqual([])
    expect(report.unchanged).toEqual([
      { name: 'csv-tool', path: 'csv-tool/SKILL.md', commit: to, note: `upstream moved to ${to.slice(0, 12)} without changing this skill`, messageCode: 'update.moved_unchanged', params: { commit: to.slice(0, 12) } }
    ])
    expect(translateLine(report.unchanged[0], report.unchanged[0]!.note!, 'zh')).toBe(`上游已移到 ${to.slice(0, 12)}，但没有修改此技能`)

    const proposal = (await loadPlan(lib)).proposals.find((p) => p.kind === 'update')!
    const notes = proposal.evidence.notes as string[]
    const refs = proposal.evidence.note_refs as MessageRef[]
    expect(notes).toEqual([
      'front matter changed in both places, your version kept: description',
      'logo.png is a binary file changed upstream: not carried by this proposal (reinstall the skill to take it)'
    ])
    expect(refs).toEqual([
      { messageCode: 'update.note_front_matter', params: { keys: 'description' } },
      { messageCode: 'update.note_binary', params: { file: 'logo.png' } }
    ])
    expect(refs.map((r) => englishText(r))).toEqual(notes)
    expect(refs.map((r, i) => translateMessage(r, notes[i]!, 'zh'))).toEqual([
      '头信息在两边都被修改，保留了你的版本：description',
      'logo.png 是上游修改过的二进制文件：此提议不包含它（重新安装该技能即可获取）'
    ])
  }, 120_000)

  it('a source that cannot be fetched: each skill fails with the English reason as before and its code beside it', async () => {
    const gone = makeRepo('sb-repo-gone-')
    try {
      gone.commit({ 'SKILL.md': skillMd('notes', 'Keep notes.', 'Write them down.\n') })
      const lib = newLibrary()
      await installFromSource({ library: lib, source: gone.url, cwd: tmp, env: { ...env, ...gone.env } })
      fs.rmSync(gone.bare, { recursive: true })
      const report = await updateFromSources({ library: lib, cwd: tmp, env: { ...env, ...gone.env } })
      expect(report.failed).toHaveLength(1)
      const f = report.failed[0]!
      expect(f).toMatchObject({ name: 'notes', path: 'notes/SKILL.md', messageCode: 'source.repo_not_found', params: { url: gone.url } })
      expect(f.reason).toMatch(/^repository not found: file:\/\/.*\ngit said: fatal: '.*' does not appear to be a git repository/)
      expect(englishText(ref(f))).toBe(f.reason)
      expect(translateLine(f, f.reason, 'zh')).toBe(`找不到仓库：${gone.url}（请检查地址，以及该仓库是否仍然存在）\ngit 输出：${(f.params as { detail: string }).detail}`)
    } finally {
      gone.cleanup()
    }
  }, 120_000)
})

describe('install --locked by code', () => {
  it('a tampered hash, a folder without a skill, a folder that is not there: the same English as before, by code, in Chinese', async () => {
    const a = newLibrary()
    await installFromSource({ library: a, source: repo.url, cwd: tmp, env })
    const good = parseSkillsLock(fs.readFileSync(path.join(a, SKILLS_LOCK_FILE), 'utf8'))
    const pdf = good.skills.pdf!
    const csv = good.skills['csv-tool']!
    const bad = `sha256:${'0'.repeat(64)}`
    const b = newLibrary()
    fs.writeFileSync(path.join(b, SKILLS_LOCK_FILE), serializeSkillsLock({ skills: { 'csv-tool': { ...csv, path: 'skills' }, notes: { ...csv, path: 'nothing-here' }, pdf: { ...pdf, hash: bad } } }))

    const err = await installLocked({ library: b, cwd: tmp, env }).then(() => null, (e: unknown) => e)
    expect(err).toBeInstanceOf(LockMismatchError)
    const { mismatched } = err as LockMismatchError
    const at = (e: typeof pdf, p = e.path): string => `${e.source} at ${e.commit.slice(0, 12)} (${p})`
    const noSkill = `${at(csv, 'skills')}: no skill in that folder`
    const noFolder = `${at(csv, 'nothing-here')}: no folder nothing-here in ${csv.source} at ${csv.ref} (${csv.commit.slice(0, 12)})`
    const hash = `the files at ${at(pdf)} hash to ${pdf.hash}, but the lock says ${bad}: refused (the lock or the source was changed)`
    expect(mismatched.map((m) => [m.name, m.reason, m.messageCode])).toEqual([
      ['csv-tool', noSkill, 'install.locked_at'],
      ['notes', noFolder, 'install.locked_at'],
      ['pdf', hash, 'install.locked_hash']
    ])
    expect(mismatched[0]!.params).toEqual({ at: { messageCode: 'install.at_commit_path', params: { source: csv.source, commit: csv.commit.slice(0, 12), path: 'skills' } }, reason: { messageCode: 'install.locked_no_skill', params: {} } })
    // the error fetching threw keeps its own code inside
    expect((mismatched[1]!.params as { reason: MessageRef }).reason.messageCode).toBe('source.no_subdir')
    expect(mismatched[2]!.params).toEqual({ at: { messageCode: 'install.at_commit_path', params: { source: pdf.source, commit: pdf.commit.slice(0, 12), path: pdf.path } }, got: pdf.hash, wanted: bad })
    for (const m of mismatched) expect(englishText(ref(m))).toBe(m.reason)
    // the error's message lists them as before ("name: reason; name: reason"), each by code inside it
    expect((err as LockMismatchError).message).toBe(`${SKILLS_LOCK_FILE}: csv-tool: ${noSkill}; notes: ${noFolder}; pdf: ${hash}; nothing was installed`)
    expect(englishText(ref(err as LockMismatchError))).toBe((err as LockMismatchError).message)
    expect(translateLine(mismatched[2], hash, 'zh')).toBe(`${pdf.source} 的提交 ${pdf.commit.slice(0, 12)}（${pdf.path}）：文件哈希为 ${pdf.hash}，但锁文件中是 ${bad}：已拒绝（锁文件或来源被修改过）`)
    expect(translateMessage(ref(err as LockMismatchError), '', 'zh')).toBe(
      `${SKILLS_LOCK_FILE}：csv-tool：${csv.source} 的提交 ${csv.commit.slice(0, 12)}（skills）：该文件夹中没有技能；notes：${csv.source} 的提交 ${csv.commit.slice(0, 12)}（nothing-here）：${csv.source} 的 ${csv.ref}（${csv.commit.slice(0, 12)}）中没有文件夹 nothing-here；pdf：${translateLine(mismatched[2], hash, 'zh')}；未安装任何技能`
    )
    expect(fs.readdirSync(b).filter((n) => n !== '.skillbench')).toEqual([SKILLS_LOCK_FILE])
  }, 120_000)

  it('a --path that is not there, a folder without a SKILL.md: the repository, ref and commit as values, the same English, Chinese without English in it', async () => {
    const head = repo.git('rev-parse', 'HEAD').trim()
    const c = head.slice(0, 12)
    const lib = newLibrary()
    const noFolder = await installFromSource({ library: lib, source: repo.url, path: 'nothing-here', cwd: tmp, env }).then(() => null, (e: unknown) => e as Error & MessageRef)
    expect(noFolder?.message).toBe(`no folder nothing-here in ${repo.url} at main (${c})`)
    expect(ref(noFolder!)).toEqual({ messageCode: 'source.no_subdir', params: { folder: 'nothing-here', repo: repo.url, ref: 'main', commit: c } })
    expect(translateMessage(noFolder, noFolder!.message, 'zh')).toBe(`${repo.url} 的 main（${c}）中没有文件夹 nothing-here`)
    expect(translateMessage(noFolder, noFolder!.message, 'en')).toBe(noFolder!.message)

    const noSkill = await installFromSource({ library: lib, source: repo.url, path: 'docs', cwd: tmp, env }).then(() => null, (e: unknown) => e as Error & MessageRef)
    expect(noSkill?.message).toBe(`no SKILL.md found under docs of ${repo.url} at main (${c})`)
    expect(ref(noSkill!)).toEqual({ messageCode: 'install.no_skills', params: { folder: 'docs', repo: repo.url, ref: 'main', commit: c } })
    expect(translateMessage(noSkill, noSkill!.message, 'zh')).toBe(`${repo.url} 的 main（${c}）中“docs”下没有找到 SKILL.md`)
    // the words alone (a line an older build printed) are read back to the same code and values
    expect(messageRefOf(noFolder!.message)).toEqual(ref(noFolder!))
    expect(fs.readdirSync(lib).filter((n) => n !== '.skillbench')).toEqual([])
  }, 120_000)

  it('"{source} at {commit}" is reached by code only: a sentence with "at" in it is not read back as it', () => {
    expect(messageRefOf('a file at the top')).toBeNull()
    // nor by the other fragment only a code reaches, tool.skipped_file's "{path} ({reason})"
    expect(messageRefOf('https://example.org/r.git at 0123456789ab (skills/pdf)')).toBeNull()
  })
})

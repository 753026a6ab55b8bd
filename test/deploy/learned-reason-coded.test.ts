/**
 * A `learned` proposal's reason and its notes (what of a drifted copy could not go back), by code beside their
 * unchanged English: a real library deployed to Claude Code's personal folder (SKILLBENCH_HOME in a temp folder),
 * the deployed copies edited there, then `skillbench deploy --json` run as a process. plan.json and the printed
 * report carry the codes; the English re-renders from them; the Curate screen words the reason by code.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { englishText, type MessageRef } from '../../src/shared/error-codes'
import type { DeployResult } from '../../src/shared/api-deploy'
import type { Proposal } from '../../src/shared/types'
import { deploy } from '../../src/main/deploy/run'
import { loadPlan } from '../../src/main/review/plan'
import { proposalReason } from '../../src/renderer/features/curate/proposal-text'
import { formatMessage, type Translate } from '../../src/renderer/i18n/i18n'
import { MESSAGES } from '../../src/renderer/i18n/messages'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'

const ROOT = path.resolve(__dirname, '..', '..')
let tmp: string
let lib: string
let env: NodeJS.ProcessEnv

const PDF = '---\nname: pdf\ndescription: Work with PDF files.\n---\n\n# PDF\n\nUse pypdf.\n'
const CSV = '---\nname: csv-tool\ndescription: Summarise CSV files.\n---\n\nRead with pandas.\n'
const LOGO = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3])
const tr = (lang: 'en' | 'zh'): Translate => (key, vars) => formatMessage(MESSAGES[lang][key], vars)
const ref = (p: Proposal): MessageRef => ({ messageCode: p.messageCode!, params: p.params! })

function write(rel: string, data: string | Buffer): void {
  fs.mkdirSync(path.dirname(path.join(lib, rel)), { recursive: true })
  fs.writeFileSync(path.join(lib, rel), data)
}

function cli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'skillbench.cjs'), ...args], { env: { ...process.env, ...env, NODE_OPTIONS: '' } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-learned-reason-')))
  lib = path.join(tmp, 'library')
  env = { SKILLBENCH_HOME: path.join(tmp, 'home') }
  write('pdf/SKILL.md', PDF)
  write('pdf/references/api.md', 'The API.\n')
  write('pdf/assets/logo.bin', LOGO)
  write('csv-tool/SKILL.md', CSV)
})
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

describe("a learned proposal's reason and notes by code", () => {
  it('the same English as before, deploy.learned_reason* and deploy.note_* beside it in plan.json and --json, in Chinese by code', async () => {
    const first = await deploy({ library: lib, to: 'claude', cwd: tmp, env, by: 'test' })
    const target = first.target
    expect(target.label).toBe('Claude Code (personal)')
    const copy = (rel: string): string => path.join(target.dir, rel)
    // pdf: the same line edited in both places, the description too; a binary changed and a file removed there
    fs.writeFileSync(copy('pdf/SKILL.md'), fs.readFileSync(copy('pdf/SKILL.md'), 'utf8').replace('Use pypdf.', 'Use pypdf; OCR scans first.').replace('Work with PDF files.', 'Work with PDF files and scans.'))
    fs.writeFileSync(copy('pdf/assets/logo.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 9, 9, 9]))
    fs.rmSync(copy('pdf/references/api.md'))
    write('pdf/SKILL.md', PDF.replace('Use pypdf.', 'Use pypdf or pdfplumber.').replace('Work with PDF files.', 'Work with PDF documents.'))
    // csv-tool: only the deployed copy changed
    fs.writeFileSync(copy('csv-tool/SKILL.md'), fs.readFileSync(copy('csv-tool/SKILL.md'), 'utf8').replace('Read with pandas.', 'Read with polars.'))

    const run = await cli('deploy', '--library', lib, '--to', 'claude', '--json')
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const report = JSON.parse(run.stdout) as DeployResult
    const plan = await loadPlan(fs.realpathSync(lib))
    const learned = plan.proposals.filter((p) => p.kind === 'learned')
    expect(learned.map((p) => p.members[0]!.title).sort()).toEqual(['csv-tool', 'pdf'])
    const pdf = learned.find((p) => p.members[0]!.title === 'pdf')!
    const csv = learned.find((p) => p.members[0]!.title === 'csv-tool')!

    // no conflict: the reason as before, by code
    expect(csv.reason).toBe('The copy of “csv-tool” deployed to Claude Code (personal) was changed there (by an agent or a person); the change is offered back to the library.')
    expect(ref(csv)).toEqual({ messageCode: 'deploy.learned_reason', params: { title: 'csv-tool', target: 'Claude Code (personal)' } })
    expect(csv.evidence.notes).toBeUndefined()
    expect(csv.evidence.note_refs).toBeUndefined()

    // conflicts: the count in the sentence and in its params
    const n = pdf.evidence.conflicts as number
    expect(n).toBe(2)
    expect(pdf.reason).toBe(
      'The copy of “pdf” deployed to Claude Code (personal) was changed there (by an agent or a person); the change is offered back to the library. 2 place(s) the library changed too are marked <<<<<<< / >>>>>>>: resolve them before accepting.'
    )
    expect(ref(pdf)).toEqual({ messageCode: 'deploy.learned_reason_conflicts', params: { title: 'pdf', target: 'Claude Code (personal)', n: 2 } })
    const notes = ["changed in the library too, the library's kept: description", 'assets/logo.bin is a binary file changed in the deployed copy: not carried by a proposal', 'references/api.md was removed from the deployed copy: kept in the library']
    const noteRefs: MessageRef[] = [
      { messageCode: 'deploy.note_library_kept', params: { keys: 'description' } },
      { messageCode: 'deploy.note_binary', params: { file: 'assets/logo.bin' } },
      { messageCode: 'deploy.note_removed_deployed', params: { file: 'references/api.md' } }
    ]
    expect(pdf.evidence.notes).toEqual(notes)
    expect(pdf.evidence.note_refs).toEqual(noteRefs)
    // --json: the report's notes for the skill, by code beside the same English
    const row = report.skills.find((s) => s.name === 'pdf')!
    expect(row.notes).toEqual(notes)
    expect(row.note_refs).toEqual(noteRefs)
    expect(noteRefs.map((r) => englishText(r))).toEqual(notes)
    for (const p of [csv, pdf]) expect(englishText(ref(p))).toBe(p.reason)

    // in Chinese by code
    expect(translateMessage(ref(pdf), pdf.reason, 'zh')).toBe('部署到 Claude Code (personal) 的“pdf”副本在那里被修改了（由智能体或某人）；这些修改作为提议交回技能库。有 2 处技能库也改了，已用 <<<<<<< / >>>>>>> 标出：请处理后再接受。')
    expect(noteRefs.map((r, i) => translateMessage(r, notes[i]!, 'zh'))).toEqual([
      '技能库中也修改了，保留技能库的版本：description',
      'assets/logo.bin 是部署副本中被修改的二进制文件：提议无法携带它',
      'references/api.md 已从部署的副本中删除：技能库中仍保留它'
    ])
    // the Curate screen: by code in either language; a plan an older build wrote is worded from its evidence
    expect(proposalReason(tr('zh'), csv, 'zh').text).toBe('部署到 Claude Code (personal) 的“csv-tool”副本在那里被修改了（由智能体或某人）；这些修改作为提议交回技能库。')
    expect(proposalReason(tr('en'), pdf, 'en').text).toBe(pdf.reason)
    const { messageCode: _c, params: _p, ...older } = csv
    expect(proposalReason(tr('zh'), older, 'zh').text).toBe(tr('zh')('reason.learned', { title: 'csv-tool', target: 'claude' }))
  }, 120_000)
})

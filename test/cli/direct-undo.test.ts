/**
 * Direct destructive changes can be undone (walk 54, finding 7), through real CLI processes (node bin/skillbench.cjs):
 * - `edit` (any mode) and `delete` are journaled through the review engine like an accepted proposal: the text output
 *   says `Undo with: skillbench undo <id>` (stderr, in the CLI's language; stdout as before), `--json` adds
 *   `journal_id` beside the same fields, and `undo <id>` puts the files back byte for byte — refused, coded, when
 *   the skill changed since. Before, nothing was journaled and there was no id to undo.
 * - `restore` was journaled but `undo restore-…` answered "nothing applied": now it moves the skill back to legacy/.
 * - MCP's edit_skill / delete_skill with --direct-edit / --direct-delete answer with the same `journal_id`.
 * - An edit and a rating racing in two processes: both land, in either order (the lock is held from the read the
 *   edit is computed from to its journal record).
 * - The app's History (journalEntries over the journal) lists the direct changes.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readJournal } from '../../src/main/review/journal'
import { journalEntries } from '../../src/main/workbench/core-modules'
import { openLibrary } from '../../src/main/store/library'
import { createToolAnswerer } from '../../src/main/mcp/tool-answers'
import { MESSAGES } from '../../src/renderer/i18n/messages'

const ROOT = path.resolve(__dirname, '..', '..')
const BIN = path.join(ROOT, 'bin', 'skillbench.cjs')
const SAMPLE = path.join(ROOT, 'resources', 'sample-data', 'alice', 'general', 'experience')
const CALC = '1792486400'
const CALC_FILE = 'skill_Calculator in Python with.md'

let dir: string
let lib: string

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-direct-undo-')))
  lib = path.join(dir, 'L')
  fs.cpSync(SAMPLE, lib, { recursive: true })
})

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dir,
      env: { ...process.env, NODE_OPTIONS: '', SKILLBENCH_LANG: '', SKILLBENCH_SEARCH_SERVER: 'off', SKILLBENCH_CONFIG_DIR: path.join(dir, 'config'), SKILLBENCH_CACHE_DIR: path.join(dir, 'cache') }
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/** Every file of the library but Skillbench's bookkeeping and logs, with its bytes. */
function skillFiles(root: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const rel of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    const posix = rel.split(path.sep).join('/')
    if (posix.startsWith('logs') || (posix.startsWith('.skillbench') && !posix.startsWith('.skillbench/legacy'))) continue
    const p = path.join(root, rel)
    if (fs.statSync(p).isFile()) out[posix] = fs.readFileSync(p, 'base64')
  }
  return out
}

const UNDO_LINE = /^Undo with: skillbench undo (\S+)\n$/

describe('edit and delete through the CLI are journaled and undone byte for byte', () => {
  it('edit full_replace: the undo line, the journal_id in --json, and undo restores the exact bytes', async () => {
    const before = skillFiles(lib)
    const edit = await cli(['edit', CALC, '--mode', 'full_replace', '--text', 'oops', '--library', lib])
    expect(edit.code, edit.stderr).toBe(0)
    expect(edit.stdout).toBe(`Skill ${CALC} edited (full_replace)\n`)
    const id = UNDO_LINE.exec(edit.stderr)?.[1]
    expect(id, edit.stderr).toBeDefined()
    expect(fs.readFileSync(path.join(lib, CALC_FILE), 'utf8')).toContain('\noops')
    const { records } = await readJournal(lib)
    expect(records.map((r) => [r.id, r.action, r.kind])).toEqual([[id, 'apply', 'edit']])

    // --json: the fields as before, journal_id added; --lang zh words the undo line in Chinese (text mode)
    const json = await cli(['edit', CALC, '--mode', 'append', '--text', 'more', '--library', lib, '--json'])
    expect(json.code, json.stderr).toBe(0)
    const answer = JSON.parse(json.stdout) as Record<string, unknown>
    expect(Object.keys(answer)).toEqual(['status', 'message', 'skill_id', 'edit_mode', 'path', 'message_code', 'params', 'journal_id'])
    expect(answer).toMatchObject({ status: 'success', skill_id: CALC, edit_mode: 'append', path: CALC_FILE, message_code: 'tool.edited' })
    const zh = await cli(['edit', CALC, '--mode', 'append', '--text', 'again', '--library', lib, '--lang', 'zh'])
    expect(zh.code, zh.stderr).toBe(0)
    const zhId = /^撤销请用：skillbench undo (\S+)\n$/.exec(zh.stderr)?.[1]
    expect(zhId, zh.stderr).toBeDefined()

    // the oldest edit cannot be undone while later ones stand on it: refused, coded, nothing changed
    const early = await cli(['undo', id!, '--library', lib, '--json'])
    expect(early.code).toBe(1)
    expect(early.stderr).toContain('was changed since')
    // newest first, each undo exact: the sample's bytes come back
    for (const undo of [zhId!, answer.journal_id as string, id!]) {
      const r = await cli(['undo', undo, '--library', lib])
      expect(r.code, r.stderr).toBe(0)
    }
    expect(skillFiles(lib)).toEqual(before)
  }, 120_000)

  it('undo refuses an edit when the skill was rated since (a coded conflict), and the rating stays', async () => {
    const edit = await cli(['edit', CALC, '--mode', 'append', '--text', 'step 4', '--library', lib, '--json'])
    const id = (JSON.parse(edit.stdout) as { journal_id: string }).journal_id
    const rate = await cli(['rate', CALC, '1', '--library', lib])
    expect(rate.code, rate.stderr).toBe(0)
    const rated = fs.readFileSync(path.join(lib, CALC_FILE), 'utf8')
    const undo = await cli(['undo', id, '--library', lib, '--json', '--lang', 'zh'])
    expect(undo.code).toBe(1)
    expect(undo.stderr).toContain('无法撤销')
    expect(fs.readFileSync(path.join(lib, CALC_FILE), 'utf8')).toBe(rated)
  }, 120_000)

  it('delete (an AGIAgent file and a SKILL.md folder) is undone; restore is undone too', async () => {
    // a SKILL.md folder beside the AGIAgent files
    fs.mkdirSync(path.join(lib, 'pdf-tools', 'scripts'), { recursive: true })
    fs.writeFileSync(path.join(lib, 'pdf-tools', 'SKILL.md'), '---\nname: pdf-tools\ndescription: Merge and split PDF files.\n---\n\nUse qpdf.\n')
    fs.writeFileSync(path.join(lib, 'pdf-tools', 'scripts', 'merge.sh'), '#!/bin/sh\nqpdf --empty --pages "$@" -- out.pdf\n')
    const before = skillFiles(lib)
    const listed = await cli(['list', '--library', lib, '--json'])
    const pdfId = (JSON.parse(listed.stdout) as { skills: { skill_id: string; title: string }[] }).skills.find((s) => s.title === 'pdf-tools')!.skill_id

    for (const id of [CALC, pdfId]) {
      const del = await cli(['delete', id, '--library', lib, '--json'])
      expect(del.code, del.stderr).toBe(0)
      const answer = JSON.parse(del.stdout) as Record<string, unknown>
      expect(Object.keys(answer)).toEqual(['status', 'message', 'skill_id', 'from', 'to', 'message_code', 'params', 'journal_id'])
      expect(fs.existsSync(path.join(lib, answer.from as string))).toBe(false)
      expect(fs.existsSync(path.join(lib, answer.to as string))).toBe(true)
      const undo = await cli(['undo', answer.journal_id as string, '--library', lib])
      expect(undo.code, undo.stderr).toBe(0)
      expect(skillFiles(lib)).toEqual(before)
    }

    // text mode says the undo line; restore says it too, and its undo retires the skill again
    const del = await cli(['delete', CALC, '--library', lib])
    expect(del.stderr).toMatch(UNDO_LINE)
    const retired = skillFiles(lib)
    const restore = await cli(['restore', CALC, '--library', lib])
    expect(restore.code, restore.stderr).toBe(0)
    expect(restore.stdout).toBe(`Restored ${CALC} to ${CALC_FILE}.\n`)
    const restoreId = UNDO_LINE.exec(restore.stderr)?.[1]
    expect(restoreId, restore.stderr).toBeDefined()
    const undone = await cli(['undo', `restore-${CALC}`, '--library', lib])
    expect(undone.code, undone.stderr).toBe(0)
    expect(skillFiles(lib)).toEqual(retired)
    const again = await cli(['undo', restoreId!, '--library', lib])
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('already undone')

    // the app's History lists every one of them (apply and restore records, with their undo)
    const entries = journalEntries((await readJournal(lib)).records)
    expect(entries.map((e) => [e.kind, e.undone_at !== undefined])).toEqual([
      ['restore', true],
      ['delete', false],
      ['delete', true],
      ['delete', true]
    ])
    // and names each kind in both languages (the restore badge showed its raw key)
    for (const e of entries) for (const lang of ['en', 'zh'] as const) expect((MESSAGES[lang] as Record<string, string>)[`kind.${e.kind}`], `${lang} kind.${e.kind}`).toBeTruthy()
  }, 180_000)

  it('an edit and a rating racing in two processes both land (three rounds)', async () => {
    let q = 0.55
    for (let round = 0; round < 3; round++) {
      const [edit, rate] = await Promise.all([
        cli(['edit', CALC, '--mode', 'append', '--text', `line ${round}`, '--library', lib, '--json']),
        cli(['rate', CALC, '1', '--library', lib])
      ])
      expect(edit.code, edit.stderr).toBe(0)
      expect(rate.code, rate.stderr).toBe(0)
      q = Math.round((0.7 * q + 0.3) * 1000) / 1000
      const text = fs.readFileSync(path.join(lib, CALC_FILE), 'utf8')
      expect(text).toContain(`line ${round}`)
      expect(text).toContain(`quality_index: ${q}`)
    }
    const { records } = await readJournal(lib)
    expect(records.filter((r) => r.kind === 'edit')).toHaveLength(3)
  }, 180_000)
})

describe('MCP edit_skill / delete_skill in direct mode', () => {
  it('answer with a journal_id that undo takes back', async () => {
    const before = skillFiles(lib)
    const store = await openLibrary(lib)
    const answer = createToolAnswerer({ store, proposalOnly: { edit: false, delete: false } })
    const edited = (await answer('edit_skill', { skill_id: CALC, edit_mode: 'full_replace', code_edit: 'oops' }, 'walk')).structuredContent as Record<string, unknown>
    expect(edited).toMatchObject({ status: 'success', skill_id: CALC, edit_mode: 'full_replace' })
    expect(typeof edited.journal_id).toBe('string')
    const deleted = (await answer('delete_skill', { skill_id: CALC }, 'walk')).structuredContent as Record<string, unknown>
    expect(deleted).toMatchObject({ status: 'success', skill_id: CALC, from: CALC_FILE, to: `legacy/${CALC_FILE}` })
    const { records } = await readJournal(lib)
    expect(records.map((r) => [r.id, r.kind, r.by])).toEqual([
      [edited.journal_id, 'edit', 'mcp:walk'],
      [deleted.journal_id, 'delete', 'mcp:walk']
    ])
    for (const id of [deleted.journal_id as string, edited.journal_id as string]) {
      const r = await cli(['undo', id, '--library', lib])
      expect(r.code, r.stderr).toBe(0)
    }
    expect(skillFiles(lib)).toEqual(before)
  }, 120_000)
})

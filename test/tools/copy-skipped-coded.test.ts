/**
 * copy_skill_files lists each file it skips with its reason by code beside the unchanged words
 * (`skipped[]`: path, reason, message_code, params — snake_case like the rest of the answer), the same through
 * the tool, the CLI's `--json` (which MCP and HTTP share: one answer object), and in Chinese by the renderer's table.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { englishText, type MessageRef } from '../../src/shared/error-codes'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { openLibrary } from '../../src/main/store/library'
import { createSkillTools } from '../../src/main/tools/skill-tools'
import { copyTree, FIXTURE_LIBRARY, hashTree, tempDir } from '../store/helpers'
import { runCli } from '../formats/helpers'

interface SkippedEntry {
  path: string
  reason: string
  message_code: string
  params: Record<string, unknown>
}

let lib: string
let ws: string
let outside: string
beforeAll(() => {
  lib = copyTree(FIXTURE_LIBRARY)
  ws = tempDir('sb-ws-skip-')
  outside = tempDir('sb-ws-out-')
  fs.writeFileSync(path.join(outside, 'secret.py'), 'SECRET = 1\n')
  fs.writeFileSync(path.join(ws, 'main.py'), 'print("hi")\n')
  fs.writeFileSync(path.join(ws, 'solo.py'), 'print("solo")\n')
  fs.writeFileSync(path.join(ws, 'conf.json'), '{}\n')
  fs.writeFileSync(path.join(ws, 'big.py'), '#'.repeat(4096))
  fs.symlinkSync(path.join(outside, 'secret.py'), path.join(ws, 'link.py'))
  fs.linkSync(path.join(ws, 'main.py'), path.join(ws, 'twin.py'))
})
afterAll(() => {
  for (const d of [lib, ws, outside]) fs.rmSync(d, { recursive: true, force: true })
})

const FILES = ['conf.json', 'missing.py', 'link.py', 'twin.py', 'big.py', '../escape.py']

/** What each file of FILES is skipped for, exactly (the library's cap: 2 KB per file). */
const EXPECTED: SkippedEntry[] = [
  { path: 'conf.json', reason: 'only code and document files are copied (.json is not one)', message_code: 'copy.extension', params: { ext: '.json' } },
  { path: 'missing.py', reason: 'not found in the workspace', message_code: 'copy.not_found', params: {} },
  { path: 'link.py', reason: 'symbolic link: never copied', message_code: 'copy.symlink', params: {} },
  { path: 'twin.py', reason: 'hard link: never copied', message_code: 'copy.hard_link', params: {} },
  { path: 'big.py', reason: 'larger than 2 KB', message_code: 'copy.larger_than', params: { kb: 2 } },
  {
    path: '../escape.py',
    reason: 'outside the workspace or not allowed: "..", "." and empty path segments are not allowed',
    message_code: 'copy.not_allowed',
    params: { why: expect.objectContaining({ messageCode: 'relpath.dot_segment', params: {} }) }
  }
]

describe("copy_skill_files' skipped files by code", () => {
  it('each skipped entry: the same words, its code and params beside them, and Chinese by code', async () => {
    const before = hashTree(outside)
    const tools = createSkillTools(await openLibrary(lib), { copyLimits: { maxFileBytes: 2048 } })
    const r = await tools.copy_skill_files('1768616004', FILES, ws)
    expect(r.status).toBe('error')
    const skipped = r.skipped as SkippedEntry[]
    expect(skipped).toEqual(EXPECTED)
    for (const s of skipped) {
      const ref = { messageCode: s.message_code, params: s.params } as MessageRef
      expect(englishText(ref), s.path).toBe(s.reason)
    }
    const zh = Object.fromEntries(skipped.map((s) => [s.path, translateMessage({ messageCode: s.message_code, params: s.params }, s.reason, 'zh')]))
    expect(zh['link.py']).toBe('符号链接：从不复制')
    expect(zh['big.py']).toBe('大于 2 KB')
    expect(zh['../escape.py']).toBe('在工作区之外或不允许：不允许“..”、“.”和空的路径段')
    // the message still lists them all in the same words
    expect(r.message).toBe(`Copied 0 file(s) to codes/task_1768616004/; skipped 6: ${EXPECTED.map((e) => `${e.path} (${e.reason})`).join('; ')}`)
    expect(fs.existsSync(path.join(lib, 'codes', 'task_1768616004'))).toBe(false)
    expect(hashTree(outside)).toEqual(before)
  })

  it('a different backup already there: copy.different_exists with the backup path, never overwritten', async () => {
    const tools = createSkillTools(await openLibrary(lib))
    expect((await tools.copy_skill_files('1768616004', ['solo.py'], ws)).copied).toEqual(['codes/task_1768616004/solo.py'])
    fs.writeFileSync(path.join(ws, 'solo.py'), 'print("changed")\n')
    const r = await tools.copy_skill_files('1768616004', ['solo.py'], ws)
    expect(r.skipped).toEqual([
      {
        path: 'solo.py',
        reason: 'a different codes/task_1768616004/solo.py already exists (never overwritten)',
        message_code: 'copy.different_exists',
        params: { path: 'codes/task_1768616004/solo.py' }
      }
    ])
    expect(fs.readFileSync(path.join(lib, 'codes', 'task_1768616004', 'solo.py'), 'utf8')).toBe('print("solo")\n')
    const s = (r.skipped as SkippedEntry[])[0]!
    expect(translateMessage({ messageCode: s.message_code, params: s.params }, s.reason, 'zh')).toBe('已存在不同的 codes/task_1768616004/solo.py（从不覆盖）')
  })

  it('the CLI --json answer carries the same entries', async () => {
    const skillsBefore = hashTree(lib)
    const r = await runCli(['copy-files', '1768616001', 'conf.json', 'missing.py', 'link.py', 'twin.py', '--workspace', ws, '--library', lib, '--json'])
    expect(r.code).toBe(1)
    const answer = JSON.parse(r.stdout) as { skipped: SkippedEntry[] }
    expect(answer.skipped).toEqual(EXPECTED.slice(0, 4))
    expect(hashTree(lib)).toEqual(skillsBefore)
  })
})

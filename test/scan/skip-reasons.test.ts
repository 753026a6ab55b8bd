/**
 * A binary `.jsonl` and broken JSON lines in an agent's session folder are told with the reason, by `scan --json`
 * (its `skipped` list) and by `usage` ("Not read: …"), instead of being dropped without a word.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CliIo } from '../../src/main/cli/common'
import { main } from '../../src/main/cli/index'

let tmp: string
let claude: string
let lib: string

function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = []
  const err: string[] = []
  const io: CliIo = { stdout: (t) => void out.push(String(t)), stderr: (t) => void err.push(t), isTTY: false, cwd: tmp, env: { HOME: tmp, SKILLBENCH_HOME: tmp, SKILLBENCH_CACHE_DIR: path.join(tmp, 'cache') }, signal: new AbortController().signal }
  return main(argv, io).then((code) => ({ code, out: out.join(''), err: err.join('') }))
}

const rec = (o: Record<string, unknown>): string => JSON.stringify({ sessionId: 's1', timestamp: '2026-11-20T10:00:00.000Z', cwd: '/work/p', ...o })

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-skip-reasons-')))
  claude = path.join(tmp, 'projects')
  const project = path.join(claude, '-work-p')
  fs.mkdirSync(project, { recursive: true })
  const good = [
    rec({ type: 'user', uuid: 'u1', message: { role: 'user', content: 'Write a script that renames photos by date' } }),
    '{"type":"assistant", "torn',
    rec({ type: 'assistant', uuid: 'a1', parentUuid: 'u1', message: { role: 'assistant', content: [{ type: 'text', text: 'Done: rename.py renames by EXIF date.' }] } }),
    '[1, 2, 3]'
  ]
  fs.writeFileSync(path.join(project, '11111111-1111-4111-8111-111111111111.jsonl'), good.join('\n') + '\n')
  const binary = Buffer.alloc(4096)
  for (let i = 0; i < binary.length; i++) binary[i] = (i * 37) % 256
  fs.writeFileSync(path.join(project, '22222222-2222-4222-8222-222222222222.jsonl'), binary)
  lib = path.join(tmp, 'lib')
  fs.mkdirSync(path.join(lib, 'pdf'), { recursive: true })
  fs.writeFileSync(path.join(lib, 'pdf', 'SKILL.md'), '---\nname: pdf\ndescription: PDFs. Use when reading PDFs.\n---\n\nBody.\n')
})
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

describe('skip reasons for session files', () => {
  it('scan --json lists the binary file and the broken lines, and still reads the good session', async () => {
    const r = await run(['scan', '--claude-dir', claude, '--json'])
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.out) as { tasks: { requirement?: string }[]; skipped: { path: string; reason: string }[] }
    expect(doc.tasks.length).toBeGreaterThan(0)
    const byFile = Object.fromEntries(doc.skipped.map((s) => [path.basename(s.path), s.reason]))
    expect(byFile['22222222-2222-4222-8222-222222222222.jsonl']).toBe('binary data, not JSON lines: not a session file, not read')
    expect(byFile['11111111-1111-4111-8111-111111111111.jsonl']).toBe('2 line(s) that are not JSON objects skipped (torn or corrupt; the first at line 2); the rest of the file was read')
  })

  it('usage says what it did not read', async () => {
    const r = await run(['usage', '--library', lib, '--claude-dir', claude])
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/Not read: .*22222222-2222-4222-8222-222222222222\.jsonl: binary data, not JSON lines/)
    expect(r.out).toMatch(/Not read: .*11111111-1111-4111-8111-111111111111\.jsonl: 2 line\(s\) that are not JSON objects skipped/)
  })
})

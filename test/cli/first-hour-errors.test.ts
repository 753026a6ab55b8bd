/**
 * A wrong path in the first hour is said in our words, with its code: a file system error that escaped a command
 * (import --from, export --library, gen-commands --library: a realpath of a folder that is not there) used to print
 * Node's "ENOENT: no such file or directory, realpath '…'" and a --json answer without a code.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../formats/helpers'
import { codedFsError } from '../../src/main/cli/fs-errors'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { copyTree, FIXTURE_LIBRARY, tempDir } from '../store/helpers'

let dir: string
let gone: string

beforeEach(() => {
  dir = copyTree(FIXTURE_LIBRARY)
  gone = path.join(tempDir('sb-gone-'), 'not-there')
})

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

/** The CLI in-process (test/formats/helpers runCli) with this file's folder and environment. */
function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCli(argv, dir, {})
}

describe('a folder that is not there', () => {
  it('import --from, export --library and gen-commands --library say "not found: PATH", coded in --json', async () => {
    const out = tempDir('sb-out-')
    for (const [name, argv] of [
      ['import', ['import', '--from', gone, '--library', dir]],
      ['export', ['export', '--to', 'skill-md', '--library', gone, '--out', out]],
      ['gen-commands', ['gen-commands', '--library', gone, '--bin', out]]
    ] as const) {
      const plain = await run(...argv)
      expect(plain.code).toBe(1)
      expect(plain.stderr).toBe(`skillbench ${name}: not found: ${gone}\n`)
      expect(plain.stdout).toBe('')
      const json = await run(...argv, '--json')
      expect(json.code).toBe(1)
      expect(JSON.parse(json.stdout)).toEqual({ status: 'error', message: `not found: ${gone}`, code: 'not_found', message_code: 'path.not_found', params: { path: gone } })
    }
    expect(fs.existsSync(gone)).toBe(false)
  })

  it('codedFsError: ENOENT, EISDIR of real calls by code (Chinese too); an error already coded or without a path is left alone', async () => {
    const missing = await fs.promises.realpath(gone).catch((e: unknown) => e)
    expect(codedFsError(missing)).toMatchObject({ code: 'not_found', messageCode: 'path.not_found', params: { path: gone } })
    const folder = await fs.promises.open(dir, 'w').catch((e: unknown) => e)
    const isFolder = codedFsError(folder)!
    expect(isFolder).toMatchObject({ code: 'invalid', messageCode: 'path.is_folder', message: `${dir} is a folder` })
    expect(translateMessage(isFolder, isFolder.message, 'zh')).toBe(`${dir} 是文件夹`)
    expect(translateMessage({ messageCode: 'path.no_permission', params: { path: '/x' } }, 'permission denied: /x', 'zh')).toBe('没有权限访问：/x')
    expect(codedFsError(codedFsError(missing))).toBeUndefined()
    expect(codedFsError(new Error('plain'))).toBeUndefined()
  })
})

describe('a skill file given as the library', () => {
  it('list says "not a folder" with query\'s code (it said "library folder not found" of a file that is there)', async () => {
    const file = path.join(dir, 'skill_Python计算器开发.md')
    const list = await run('list', '--library', file, '--json')
    const query = await run('query', 'python', '--library', file, '--json')
    expect(list.code).toBe(1)
    expect(list.stderr).toBe(`skillbench list: not a folder: ${file}\n`)
    expect(JSON.parse(list.stdout)).toEqual({ status: 'error', message: `not a folder: ${file}`, code: 'invalid_input', message_code: 'path.not_folder', params: { path: file } })
    expect(JSON.parse(query.stdout)).toEqual(JSON.parse(list.stdout))
    expect(JSON.parse((await run('list', '--library', gone, '--json')).stdout).message_code).toBe('library.not_found')
  })
})

describe('audit of a path that is not there', () => {
  it('is said like every other command\'s line ("skillbench audit: …"; it began "audit: …"), exit 2', async () => {
    const r = await run('audit', gone)
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(`skillbench audit: ${gone}: no such file or folder\n`)
  })
})

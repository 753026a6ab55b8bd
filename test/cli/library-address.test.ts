/**
 * A library said twice, as --library DIR and as --root-dir DIR --user NAME: refused as bad usage naming both, where
 * --root-dir was ignored without a word (a `rate` then wrote to the --library one). --user beside --library alone
 * stays fine (accept, reject, undo and curate --apply record it as the one who decided).
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli, snapshot } from '../formats/helpers'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { copyTree, FIXTURE_LIBRARY, tempDir } from '../store/helpers'

let dir: string
let root: string
let other: string

beforeEach(() => {
  dir = copyTree(FIXTURE_LIBRARY)
  // a data root whose user alice has a library of her own: the one --root-dir R --user alice says
  root = tempDir('sb-two-libraries-')
  other = path.join(root, 'alice', 'general', 'experience')
  fs.mkdirSync(path.dirname(other), { recursive: true })
  fs.cpSync(FIXTURE_LIBRARY, other, { recursive: true })
})

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
  fs.rmSync(root, { recursive: true, force: true })
})

const run = (...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> => runCli(argv, root, {})

describe('--library with --root-dir', () => {
  it('rate is refused naming both, and neither library is written', async () => {
    const before = { library: snapshot(dir), other: snapshot(other) }
    const r = await run('rate', '1768616001', '0.9', '--library', dir, '--root-dir', root, '--user', 'alice')
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe(`skillbench rate: both --library ${dir} and --root-dir ${root} say which library: give one of them (--library DIR, or --root-dir DIR --user NAME)\n`)
    expect({ library: snapshot(dir), other: snapshot(other) }).toEqual(before)

    const json = await run('rate', '1768616001', '0.9', '--json', '--root-dir', root, '--library', dir)
    expect(json.code).toBe(2)
    const answer = JSON.parse(json.stdout)
    expect(answer).toMatchObject({ status: 'error', code: 'usage', message_code: 'cli.library_and_root_dir', params: { library: dir, root } })
    expect(translateMessage({ messageCode: answer.message_code, params: answer.params }, '', 'zh')).toBe(
      `--library ${dir} 和 --root-dir ${root} 同时指定了技能库：请只用其中一种（--library DIR，或 --root-dir DIR --user NAME）`
    )
    expect({ library: snapshot(dir), other: snapshot(other) }).toEqual(before)
  })

  it('every command addressed that way says the same (list, query); each address alone still works', async () => {
    for (const argv of [['list'], ['query', 'divide']]) {
      const r = await run(...argv, '--library', dir, '--root-dir', root, '--user', 'alice')
      expect(r.code, argv[0]).toBe(2)
      expect(r.stderr, argv[0]).toContain(`both --library ${dir} and --root-dir ${root} say which library`)
    }
    expect((await run('list', '--library', dir)).code).toBe(0)
    expect((await run('list', '--root-dir', root, '--user', 'alice')).code).toBe(0)
  })

  it('reflect without a session source: --library beside --root-dir is refused (it was ignored)', async () => {
    const r = await run('reflect', '--root-dir', root, '--library', dir, '--llm', 'offline')
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/^skillbench reflect: --library goes with a session source .*an AGIAgent data root is --root-dir DIR/)
    expect(fs.readdirSync(root)).toEqual(['alice'])
  })
})

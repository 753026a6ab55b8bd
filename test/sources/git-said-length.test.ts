/**
 * The `git said: …` line of a git failure quotes git's stderr cut to a readable length (GIT_SAID_CHARS): progress
 * and git's generic advice left out, the last lines that say what failed kept, a line still too long keeping its start
 * and its end (where git names the cause). Real git on file:// URLs, through installFromSource and the CLI.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as git from '../../src/main/sources/git'
import { gitFailure, SourceError } from '../../src/main/sources/git'
import { installFromSource } from '../../src/main/sources/install'

/** The limit (git.ts GIT_SAID_CHARS; read through the module so the old sources still load and fail on behaviour). */
const GIT_SAID_CHARS = 300

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'skillbench.cjs')
let tmp: string
let env: NodeJS.ProcessEnv

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-git-said-')))
  env = { ...process.env, SKILLBENCH_CACHE_DIR: path.join(tmp, 'cache'), GIT_TERMINAL_PROMPT: '0' }
})

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true })
})

async function failure(source: string): Promise<SourceError> {
  const lib = fs.mkdtempSync(path.join(tmp, 'lib-'))
  const err = await installFromSource({ library: lib, source, cwd: tmp, env }).then(
    () => null,
    (e: unknown) => e
  )
  expect(err).toBeInstanceOf(SourceError)
  return err as SourceError
}

const saidLine = (message: string): string => message.split('\n').find((l) => l.startsWith('git said: '))!.slice('git said: '.length)

/** A file:// URL to nothing, its path about 450 characters long. */
const longUrl = (): string => `file://${path.join(tmp, ...Array.from({ length: 25 }, () => 'a-rather-deep-folder'), 'nowhere.git')}`

describe("git's words, cut to a sensible length", () => {
  it("a URL to nothing: git's reason, without its advice and its generic 'Could not read from remote repository'", async () => {
    const e = await failure(`file://${path.join(tmp, 'nowhere.git')}`)
    expect(e.messageCode).toBe('source.repo_not_found')
    const said = saidLine(e.message)
    expect(said).toMatch(/^fatal: '.*nowhere\.git' does not appear to be a git repository$/)
    expect(said).not.toMatch(/Please make sure|Could not read from remote/)
  })

  it('a very long path: the line stays within the limit and keeps the cause at its end', async () => {
    const url = longUrl()
    expect(url.length).toBeGreaterThan(450)
    const e = await failure(url)
    expect(e.messageCode).toBe('source.repo_not_found')
    const said = saidLine(e.message)
    expect([...said].length).toBeLessThanOrEqual(GIT_SAID_CHARS)
    expect(said).toMatch(/^fatal: '\//)
    expect(said).toContain('…')
    expect(said.endsWith("nowhere.git' does not appear to be a git repository")).toBe(true)
  })

  it('skillbench install (a real process): the --json message quotes git within the limit', () => {
    const lib = fs.mkdtempSync(path.join(tmp, 'lib-'))
    const r = spawnSync(process.execPath, [BIN, 'install', longUrl(), '--library', lib, '--json'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...env, NODE_OPTIONS: '', SKILLBENCH_FROM_SOURCE: '1', SKILLBENCH_LANG: '' }
    })
    expect(r.status).toBe(1)
    const answer = JSON.parse(r.stdout) as { message: string; message_code: string; params: { detail: string } }
    expect(answer.message_code).toBe('source.repo_not_found')
    expect([...answer.params.detail].length).toBeLessThanOrEqual(GIT_SAID_CHARS)
    expect(saidLine(answer.message)).toBe(answer.params.detail)
    expect(answer.params.detail).toMatch(/does not appear to be a git repository$/)
  }, 60_000)

  it('gitSaid: progress and hints dropped, the last error lines kept, earlier ones dropped first when too long', () => {
    expect((git as { GIT_SAID_CHARS?: number }).GIT_SAID_CHARS).toBe(GIT_SAID_CHARS)
    const gitSaid = (git as unknown as { gitSaid: (stderr: string) => string }).gitSaid
    const fetch = [
      'remote: Enumerating objects: 120, done.',
      'remote: Counting objects: 100% (120/120), done.',
      'Receiving objects:  10% (12/120)\rReceiving objects:  50% (60/120)\rReceiving objects:  90% (108/120)',
      'hint: something about configuration',
      'error: RPC failed; curl 92 HTTP/2 stream 5 was not closed cleanly: CANCEL (err 8)',
      'error: 4 bytes of body are still expected',
      'fetch-pack: unexpected disconnect while reading sideband packet',
      'fatal: early EOF',
      'fatal: fetch-pack: invalid index-pack output'
    ].join('\n')
    expect(gitSaid(fetch)).toBe('error: 4 bytes of body are still expected fatal: early EOF fatal: fetch-pack: invalid index-pack output')
    // no error line: the last lines, whatever they are
    expect(gitSaid('one\ntwo\nthree\nfour')).toBe('two three four')
    // only advice: it is still said rather than nothing
    expect(gitSaid('fatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.')).toBe(
      'fatal: Could not read from remote repository.'
    )
    expect(gitSaid('  \n')).toBe('')
    // a push someone else's push got ahead of: the refused ref's line says why (sync retries on it)
    const refused = "To file:///tmp/team.git\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs to 'file:///tmp/team.git'\nhint: Updates were rejected because the remote contains work that you do not\nhint: have locally."
    expect(gitSaid(refused)).toBe("! [rejected] main -> main (fetch first) error: failed to push some refs to 'file:///tmp/team.git'")
    // many long error lines: the earlier ones go first, the last one stays whole when it fits
    const long = Array.from({ length: 5 }, (_, i) => `error: ${String(i).repeat(120)}`).join('\n')
    expect(gitSaid(long)).toBe(`error: ${'3'.repeat(120)} error: ${'4'.repeat(120)}`)
    // one enormous line: its start and its end, within the limit
    const huge = gitSaid(`fatal: ${'x'.repeat(5000)} the cause`)
    expect([...huge].length).toBe(GIT_SAID_CHARS)
    expect(huge.startsWith('fatal: xxx')).toBe(true)
    expect(huge.endsWith('xxx the cause')).toBe(true)
    // gitFailure quotes it, and says "no message" for a silent git
    const e = gitFailure(['fetch', '--', 'https://example.org/a.git', 'main'], fetch, { url: 'https://example.org/a.git' })
    expect(e.message).toBe('git could not fetch https://example.org/a.git\ngit said: error: 4 bytes of body are still expected fatal: early EOF fatal: fetch-pack: invalid index-pack output')
    expect(gitFailure(['fetch'], '', { url: 'https://example.org/a.git' }).message).toBe('git could not fetch https://example.org/a.git\ngit said: no message')
  })
})

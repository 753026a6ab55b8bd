/**
 * When git cannot fetch a source, the message says what failed in the user's words (repository not found, no
 * network, credentials needed, not a git repository, else "git could not fetch URL"), in English and in Chinese by
 * code, with git's own words kept as a line of their own beneath. Real git, on local repositories and file:// URLs.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { englishText, type MessageRef } from '../../src/shared/error-codes'
import { gitFailure, remoteOf, SourceError } from '../../src/main/sources/git'
import { installFromSource } from '../../src/main/sources/install'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { makeRepo, skillMd, type TestRepo } from './git-repo'

let tmp: string
let env: NodeJS.ProcessEnv
let repo: TestRepo

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-git-words-')))
  repo = makeRepo()
  env = { ...repo.env, SKILLBENCH_CACHE_DIR: path.join(tmp, 'cache') }
  repo.commit({ 'SKILL.md': skillMd('notes', 'Keep notes.', 'Write them down.\n') })
})

afterAll(() => {
  repo.cleanup()
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

const zh = (e: SourceError): string => translateMessage(e as MessageRef, e.message, 'zh')

describe('git failures in the user words', () => {
  it('a file:// URL to nothing: "repository not found", git\'s words on the next line, Chinese by code', async () => {
    const url = `file://${path.join(tmp, 'nowhere.git')}`
    const e = await failure(url)
    expect(e.code).toBe('not_git')
    expect(e.messageCode).toBe('source.repo_not_found')
    const [first, second, ...rest] = e.message.split('\n')
    expect(first).toBe(`repository not found: ${url} (check the address, and that the repository still exists)`)
    expect(second).toMatch(/^git said: fatal: '.*nowhere\.git' does not appear to be a git repository/)
    expect(rest).toEqual([])
    expect(englishText({ messageCode: e.messageCode, params: e.params })).toBe(e.message)
    const words = zh(e).split('\n')
    expect(words[0]).toBe(`找不到仓库：${url}（请检查地址，以及该仓库是否仍然存在）`)
    // git's own text stays as git wrote it, beneath
    expect(words[1]).toBe(`git 输出：${(e.params as { detail: string }).detail}`)
  })

  it('a repository that was there and is gone: the same "not found"', async () => {
    const gone = makeRepo('sb-repo-gone-')
    try {
      gone.commit({ 'SKILL.md': skillMd('gone', 'Gone soon.', 'Body.\n') })
      fs.rmSync(gone.bare, { recursive: true })
      expect((await failure(gone.url)).messageCode).toBe('source.repo_not_found')
    } finally {
      gone.cleanup()
    }
  })

  it('a file:// URL to a folder that is no repository: "is not a git repository"', async () => {
    const plain = fs.mkdtempSync(path.join(tmp, 'plain-'))
    fs.writeFileSync(path.join(plain, 'README.md'), 'just files\n')
    const e = await failure(`file://${plain}`)
    expect(e.messageCode).toBe('source.not_a_repo')
    expect(e.message.split('\n')[0]).toBe(`file://${plain} is not a git repository`)
    expect(zh(e).split('\n')[0]).toBe(`file://${plain} 不是 git 仓库`)
  })

  it('a port where nothing listens: "could not reach", not "not a repository"', async () => {
    const e = await failure('http://127.0.0.1:9/org/skills.git')
    expect(e.messageCode).toBe('source.no_network')
    expect(e.message.split('\n')[0]).toBe('could not reach http://127.0.0.1:9/org/skills.git: check the network connection and the address')
    expect(e.message.split('\n')[1]).toMatch(/^git said: .*(Failed to connect|Couldn't connect|Connection refused)/)
    expect(zh(e).split('\n')[0]).toBe('无法连接 http://127.0.0.1:9/org/skills.git：请检查网络连接和地址')
  })

  it('a working repository still installs (nothing of this is in its way)', async () => {
    const lib = fs.mkdtempSync(path.join(tmp, 'lib-'))
    expect((await installFromSource({ library: lib, source: repo.url, cwd: tmp, env })).installed.map((s) => s.name)).toEqual(['notes'])
  })

  it('classifies by git\'s words where they are reliable, else "git could not fetch URL" with git\'s words beneath', () => {
    const remote = { url: 'https://example.org/a.git' }
    expect(gitFailure(['ls-remote', '--', remote.url], 'remote: Repository not found.\nfatal: repository \'https://example.org/a.git/\' not found', remote).messageCode).toBe('source.repo_not_found')
    expect(gitFailure(['ls-remote', '--', remote.url], "fatal: unable to access 'https://example.org/a.git/': Could not resolve host: example.org", remote).messageCode).toBe('source.no_network')
    expect(gitFailure(['ls-remote', '--', remote.url], "fatal: could not read Username for 'https://example.org': terminal prompts disabled", remote).messageCode).toBe('source.auth')
    const other = gitFailure(['fetch', '--', remote.url, 'main'], 'fatal: the remote end hung up unexpectedly', remote)
    expect(other.code).toBe('git_failed')
    expect(other.message).toBe('git could not fetch https://example.org/a.git\ngit said: fatal: the remote end hung up unexpectedly')
    expect(translateMessage(other as MessageRef, other.message, 'zh')).toBe('git 无法获取 https://example.org/a.git\ngit 输出：fatal: the remote end hung up unexpectedly')
    // the credentials of a URL are never repeated
    expect(remoteOf(['ls-remote', '--symref', '--', 'https://user:s3cret@example.org/a.git', 'HEAD'])).toBe('https://example.org/a.git')
    expect(remoteOf(['-C', '/x', 'cat-file', '--batch'])).toBeUndefined()
  })
})

/**
 * The install cache is contained like a library: a symbolic link planted as the cache folder, as its `git` folder
 * or inside a cached repository never makes a fetch write somewhere else. (Before: `install` wrote through each.)
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installFromSource } from '../../src/main/sources/install'
import { makeRepo, skillMd, type TestRepo } from './git-repo'

let tmp: string
let repo: TestRepo

const listAll = (dir: string): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String).sort() : [])

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-cache-links-')))
  repo = makeRepo()
  repo.commit({ 'pdf/SKILL.md': skillMd('pdf', 'Work with PDF files. Use when reading PDFs.', 'Body.\n') })
})

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true })
  repo.cleanup()
})

describe('the install cache under links', () => {
  it('refuses a cache folder that is a symbolic link, writing nothing where it points', async () => {
    const elsewhere = path.join(tmp, 'elsewhere-1')
    fs.mkdirSync(elsewhere)
    const cache = path.join(tmp, 'cache-link')
    fs.symlinkSync(elsewhere, cache)
    const lib = fs.mkdtempSync(path.join(tmp, 'lib-'))
    await expect(installFromSource({ library: lib, source: repo.url, cwd: tmp, env: { ...repo.env, SKILLBENCH_CACHE_DIR: cache } })).rejects.toThrow(/cache-link is a symbolic link \(→ .*elsewhere-1\): Skillbench never writes its cache through a link/)
    expect(listAll(elsewhere)).toEqual([])
    expect(listAll(lib)).toEqual([])
  })

  it('refuses a git folder that is a symbolic link', async () => {
    const elsewhere = path.join(tmp, 'elsewhere-2')
    fs.mkdirSync(elsewhere)
    const cache = path.join(tmp, 'cache-2')
    fs.mkdirSync(cache)
    fs.symlinkSync(elsewhere, path.join(cache, 'git'))
    const lib = fs.mkdtempSync(path.join(tmp, 'lib-'))
    await expect(installFromSource({ library: lib, source: repo.url, cwd: tmp, env: { ...repo.env, SKILLBENCH_CACHE_DIR: cache } })).rejects.toThrow(/git is a symbolic link/)
    expect(listAll(elsewhere)).toEqual([])
  })

  it('a link inside a cached repository is removed, never followed, and the install goes on', async () => {
    const cache = path.join(tmp, 'cache-3')
    const env = { ...repo.env, SKILLBENCH_CACHE_DIR: cache }
    const first = await installFromSource({ library: fs.mkdtempSync(path.join(tmp, 'lib-')), source: repo.url, cwd: tmp, env })
    expect(first.installed.map((s) => s.name)).toEqual(['pdf'])
    const repoDir = fs.readdirSync(path.join(cache, 'git')).find((n) => n.endsWith('.git'))!
    const objects = path.join(cache, 'git', repoDir, 'objects')
    const elsewhere = path.join(tmp, 'elsewhere-3')
    fs.mkdirSync(elsewhere)
    fs.rmSync(objects, { recursive: true })
    fs.symlinkSync(elsewhere, objects)
    repo.commit({ 'csv/SKILL.md': skillMd('csv-tool', 'Summarise CSV files. Use when a CSV is given.', 'Body.\n') })
    const second = await installFromSource({ library: fs.mkdtempSync(path.join(tmp, 'lib-')), source: repo.url, cwd: tmp, env })
    expect(second.installed.map((s) => s.name).sort()).toEqual(['csv-tool', 'pdf'])
    expect(listAll(elsewhere)).toEqual([])
    expect(fs.lstatSync(objects).isDirectory()).toBe(true)
  })
})

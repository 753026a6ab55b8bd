/** The one atomic write (store/atomic.ts): library files and the app's own files (settings, secrets) alike. */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeFileAtomic } from '../../src/main/store/atomic'
import { secretsFile } from '../../src/main/workbench/secrets'
import { tempDir } from './helpers'

describe('writeFileAtomic', () => {
  it('with folderMode makes the missing folders first (private), and mode makes the file private from its creation', async () => {
    const dir = path.join(tempDir('sb-atomic-'), 'config', 'skillbench')
    const file = path.join(dir, 'settings.json')
    await expect(writeFileAtomic(file, '{}')).rejects.toThrow(/ENOENT/) // without folderMode the folder must exist
    await writeFileAtomic(file, '{"a":1}', { mode: 0o600, folderMode: 0o700 })
    expect(fs.readFileSync(file, 'utf8')).toBe('{"a":1}')
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700)
    await writeFileAtomic(file, '{"a":2}', { mode: 0o600, folderMode: 0o700 })
    expect(fs.readFileSync(file, 'utf8')).toBe('{"a":2}')
    expect(fs.readdirSync(dir)).toEqual(['settings.json'])
  })

  it('never writes through a link, app files included', async () => {
    const dir = tempDir('sb-atomic-link-')
    const outside = path.join(tempDir('sb-atomic-outside-'), 'keep.json')
    fs.writeFileSync(outside, 'not yours')
    fs.symlinkSync(outside, path.join(dir, 'secrets.json'))
    const secrets = secretsFile(path.join(dir, 'secrets.json'))
    await expect(secrets.writeAll({ k: 'v' })).rejects.toThrow(/symbolic link/)
    expect(fs.readFileSync(outside, 'utf8')).toBe('not yours')
  })
})

describe('secretsFile', () => {
  it('reads a missing or malformed file as empty and writes the whole object, owner-only', async () => {
    const file = path.join(tempDir('sb-secrets-'), 'new', 'secrets.json')
    const secrets = secretsFile(file)
    expect(await secrets.readAll()).toEqual({})
    await secrets.writeAll({ 'llm.apiKey': 'sk-1' })
    expect(await secrets.readAll()).toEqual({ 'llm.apiKey': 'sk-1' })
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
    fs.writeFileSync(file, '[1,2')
    expect(await secrets.readAll()).toEqual({})
  })
})

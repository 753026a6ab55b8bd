/** Cache files are written whole and private, and never read or written through a link. */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readCacheFile, writeCacheFile, writeCacheFileSync } from '../../src/main/cache-files'
import { tempDir } from './helpers'

describe('cache files', () => {
  it('are written whole, private to the user, in a folder made for them; no temp file is left', async () => {
    const dir = path.join(tempDir('sb-cachefiles-'), 'nested', 'cache')
    await writeCacheFile(path.join(dir, 'a.bin'), Buffer.from('first'))
    writeCacheFileSync(path.join(dir, 'b.bin'), 'second')
    await writeCacheFile(path.join(dir, 'a.bin'), 'replaced')
    expect(fs.readFileSync(path.join(dir, 'a.bin'), 'utf8')).toBe('replaced')
    expect((await readCacheFile(path.join(dir, 'b.bin')))!.toString()).toBe('second')
    expect(fs.statSync(path.join(dir, 'a.bin')).mode & 0o777).toBe(0o600)
    expect(fs.readdirSync(dir).sort()).toEqual(['a.bin', 'b.bin'])
    expect(await readCacheFile(path.join(dir, 'missing.bin'))).toBeNull()
    // from pieces written one after another (views into larger arrays included): the same bytes, private
    const big = new Uint8Array(3 << 20).map((_, i) => i % 251)
    await writeCacheFile(path.join(dir, 'c.bin'), [Buffer.from('head'), big.subarray(7, (2 << 20) + 7), new Uint8Array(0), Buffer.from('tail')])
    expect(fs.readFileSync(path.join(dir, 'c.bin')).equals(Buffer.concat([Buffer.from('head'), big.subarray(7, (2 << 20) + 7), Buffer.from('tail')]))).toBe(true)
    expect(fs.statSync(path.join(dir, 'c.bin')).mode & 0o777).toBe(0o600)
    expect(fs.readdirSync(dir).sort()).toEqual(['a.bin', 'b.bin', 'c.bin'])
  })

  it('a cache file replaced by a link is not read through, and writing replaces the link, not its target', async () => {
    const dir = tempDir('sb-cachefiles-link-')
    const target = path.join(tempDir('sb-cachefiles-elsewhere-'), 'keep.txt')
    fs.writeFileSync(target, 'not yours')
    fs.symlinkSync(target, path.join(dir, 'c.bin'))
    expect(await readCacheFile(path.join(dir, 'c.bin'))).toBeNull()
    await writeCacheFile(path.join(dir, 'c.bin'), 'cache')
    expect(fs.lstatSync(path.join(dir, 'c.bin')).isSymbolicLink()).toBe(false)
    expect(fs.readFileSync(target, 'utf8')).toBe('not yours')
  })
})

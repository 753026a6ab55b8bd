import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import type * as Tokenize from '../../src/main/text/tokenize'
import type * as StemCache from '../../src/main/text/stem-cache'

/** A fresh copy of the tokenizer and the stem cache (each with its own empty word cache). */
async function freshModules(): Promise<{ tok: typeof Tokenize; cache: typeof StemCache }> {
  vi.resetModules()
  return { tok: await import('../../src/main/text/tokenize'), cache: await import('../../src/main/text/stem-cache') }
}

function tempFile(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-stems-')), 'cache', 'stems.txt')
}

const TEXT = 'Retrying failed requests: the running workers connected, configured and deployed the containers'

describe('stem cache (stems kept between processes)', () => {
  it('saves the stems one process made and primes the next with them, which tokenizes to the same terms', async () => {
    const file = tempFile()
    const first = await freshModules()
    const terms = first.tok.tokenize(TEXT)
    await first.cache.saveStems(file, 0)
    const saved = fs.readFileSync(file, 'utf8').split('\n')
    expect(saved[0]).toBe(`skillbench stems v${first.tok.TOKENIZER_VERSION}`)
    expect(saved).toContain('running\trun')
    expect(saved).toContain('the\t') // a stop word is kept as dropped
    expect(saved[saved.length - 2]).toBe(`end ${saved.length - 3}`)

    const second = await freshModules()
    expect(await second.cache.loadStems(file)).toBe(saved.length - 3)
    expect(second.tok.tokenize(TEXT)).toEqual(terms)
    // nothing new: the file is not written again
    const mtime = fs.statSync(file).mtimeMs
    await second.cache.saveStems(file, saved.length - 3)
    expect(fs.statSync(file).mtimeMs).toBe(mtime)
  })

  it('ignores a file whose stems the stemmer does not give, a torn file, another version and a missing file', async () => {
    const file = tempFile()
    const first = await freshModules()
    first.tok.tokenize(TEXT)
    await first.cache.saveStems(file, 0)
    const good = fs.readFileSync(file, 'utf8')
    const lines = good.split('\n')

    const wrong = lines.map((l, i) => (i === 1 ? `${l.split('\t')[0]}\tzzz` : l)).join('\n')
    const torn = lines.slice(0, -3).join('\n') + '\n'
    const otherVersion = good.replace(/^skillbench stems v\d+/, 'skillbench stems v999')
    for (const bad of [wrong, torn, otherVersion]) {
      fs.writeFileSync(file, bad)
      const fresh = await freshModules()
      expect(await fresh.cache.loadStems(file)).toBe(0)
      expect(fresh.tok.tokenize(TEXT)).toEqual(first.tok.tokenize(TEXT))
    }
    const fresh = await freshModules()
    expect(await fresh.cache.loadStems(path.join(path.dirname(file), 'absent.txt'))).toBe(0)
  })
})

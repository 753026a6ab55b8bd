import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import type * as Tokenize from '../../src/main/text/tokenize'
import type * as StemCache from '../../src/main/curate/stem-cache'

/** A fresh copy of the tokenizer and the stem cache (each with its own empty word cache). */
async function freshModules(): Promise<{ tok: typeof Tokenize; cache: typeof StemCache }> {
  vi.resetModules()
  return { tok: await import('../../src/main/text/tokenize'), cache: await import('../../src/main/curate/stem-cache') }
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
    await first.cache.saveStems(file)
    const saved = fs.readFileSync(file, 'utf8').split('\n')
    expect(saved[0]).toBe(`skillbench stems v${first.tok.TOKENIZER_VERSION} sorted`)
    expect(saved).toContain('running\trun')
    expect(saved).toContain('the\t') // a stop word is kept as dropped
    expect(saved[saved.length - 2]).toBe(`end ${saved.length - 3}`)
    const words = saved.slice(1, -2).map((l) => l.split('\t')[0]!)
    expect(words).toEqual([...words].sort())

    const second = await freshModules()
    expect(await second.cache.loadStems(file)).toBe(saved.length - 3)
    expect(second.tok.tokenize(TEXT)).toEqual(terms)
    // every word came from the file: nothing to add, so it is not written again
    expect(second.tok.stemmedWords().fresh).toBe(0)
    const mtime = fs.statSync(file).mtimeMs
    await second.cache.saveStems(file)
    expect(fs.statSync(file).mtimeMs).toBe(mtime)
  })

  it('ignores a file whose stems the stemmer does not give, a torn file, another version and a missing file', async () => {
    const file = tempFile()
    const first = await freshModules()
    first.tok.tokenize(TEXT)
    await first.cache.saveStems(file)
    const good = fs.readFileSync(file, 'utf8')
    const lines = good.split('\n')

    const wrong = lines.map((l, i) => (i === 1 ? `${l.split('\t')[0]}\tzzz` : l)).join('\n')
    const torn = lines.slice(0, -3).join('\n') + '\n'
    const otherVersion = good.replace(/^skillbench stems v\d+/, 'skillbench stems v999')
    const unsortedFormat = good.replace(/ sorted\n/, '\n')
    const noTab = lines.map((l, i) => (i === 2 ? l.replace('\t', ' ') : l)).join('\n')
    for (const bad of [wrong, torn, otherVersion, unsortedFormat, noTab]) {
      fs.writeFileSync(file, bad)
      const fresh = await freshModules()
      expect(await fresh.cache.loadStems(file)).toBe(0)
      expect(fresh.tok.tokenize(TEXT)).toEqual(first.tok.tokenize(TEXT))
    }
    const fresh = await freshModules()
    expect(await fresh.cache.loadStems(path.join(path.dirname(file), 'absent.txt'))).toBe(0)
  })

  it('looks saved words up in place, merges them with new ones on save, and keeps the words met last over the limit', async () => {
    const file = tempFile()
    const first = await freshModules()
    const many = Array.from({ length: 400 }, (_, i) => `deploying${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}ments`)
    first.tok.tokenize(many.join(' '))
    await first.cache.saveStems(file)
    const stemsOf = (text: string): Map<string, string> => new Map(text.split('\n').slice(1, -2).map((l) => l.split('\t') as [string, string]))
    const before = stemsOf(fs.readFileSync(file, 'utf8'))
    expect(before.size).toBe(400)

    // The next process finds every word in the file (first, last and middle lines alike) without stemming any.
    const second = await freshModules()
    expect(await second.cache.loadStems(file)).toBe(400)
    const sorted = [...before.keys()].sort()
    for (const word of [sorted[0]!, sorted[199]!, sorted[399]!]) expect(second.tok.tokenize(word)).toEqual([before.get(word)])
    // nothing stemmed here: nothing to keep, and the words met are not even gathered
    expect(second.tok.stemmedWords()).toEqual({ entries: [], fresh: 0 })
    // a new word is stemmed, and the save keeps the file's words with it
    expect(second.tok.tokenize('containerized')).toEqual(first.tok.tokenize('containerized'))
    expect(second.tok.stemmedWords().fresh).toBe(1)
    // then every word met is gathered, those the file gave included
    expect(new Map(second.tok.stemmedWords().entries)).toEqual(new Map([...[sorted[0]!, sorted[199]!, sorted[399]!].map((w) => [w, before.get(w)!] as const), ['containerized', first.tok.tokenize('containerized')[0]!]]))
    await second.cache.saveStems(file)
    const after = stemsOf(fs.readFileSync(file, 'utf8'))
    expect(after.size).toBe(401)
    for (const [word, term] of before) expect(after.get(word)).toBe(term)

    // Over the limit the words this process met stay, then the file's words until the limit.
    const third = await freshModules()
    await third.cache.loadStems(file)
    third.tok.tokenize('orchestrating schedulers')
    await third.cache.saveStems(file, 10)
    const capped = stemsOf(fs.readFileSync(file, 'utf8'))
    expect(capped.size).toBe(10)
    expect(capped.has('orchestrating') && capped.has('schedulers')).toBe(true)
    for (const [word, term] of capped) expect(third.tok.tokenize(word)).toEqual(term === '' ? [] : [term])
  })

  it('takes saved stems for plain lowercase words only', async () => {
    const { tok } = await freshModules()
    tok.useSavedStems(() => 'zzz')
    expect(tok.tokenize('deploying')).toEqual(['zzz'])
    expect(tok.tokenize('café naïve')).toEqual(['café', 'naïve'])
    expect(tok.stemmedWords().fresh).toBe(0)
  })

  it('writes a text made ahead of the save (prepareStems) only while no word was met since', async () => {
    const { tok, cache } = await freshModules()
    tok.tokenize(TEXT)
    const early = tempFile()
    cache.prepareStems()
    await cache.saveStems(early)
    const late = tempFile()
    cache.prepareStems()
    tok.tokenize('Benchmarking')
    await cache.saveStems(late)
    expect(fs.readFileSync(early, 'utf8')).not.toContain('benchmarking\t')
    expect(fs.readFileSync(late, 'utf8')).toContain('benchmarking\tbenchmark')
    // the same text as a save that made it itself
    const made = tempFile()
    await cache.saveStems(made)
    expect(fs.readFileSync(late, 'utf8')).toBe(fs.readFileSync(made, 'utf8'))
  })
})

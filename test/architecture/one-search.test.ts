/**
 * One search object (issue 40): a library is searched through `LibrarySearch` only. Where the index is saved
 * (search/open.ts) is search's own business, and no module outside the text layer ranks a query with the text
 * layer's TF-IDF (it builds clustering and the similarity map's pairs; a query's answer comes from the search).
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { importGraph } from './import-graph'

const MAIN = path.resolve(__dirname, '..', '..', 'src', 'main')
const rel = (f: string): string => path.relative(MAIN, f).split(path.sep).join('/')

describe('one search object', () => {
  const graph = importGraph(MAIN)

  it('nothing outside search/ imports search/open.ts (LibrarySearch is the way in)', () => {
    const users = [...graph].filter(([file, deps]) => !rel(file).startsWith('search/') && deps.some((d) => rel(d) === 'search/open.ts'))
    expect(graph.size).toBeGreaterThan(200)
    expect(users.map(([file]) => rel(file))).toEqual([])
  })

  it('no module outside text/ that imports the TF-IDF index queries it: queries are ranked by the search', () => {
    const tfidfUsers = [...graph].filter(([file, deps]) => !rel(file).startsWith('text/') && deps.some((d) => rel(d) === 'text/tfidf.ts')).map(([file]) => file)
    // The clustering still builds on it: the check below looks at real users.
    expect(tfidfUsers.length).toBeGreaterThan(0)
    expect(tfidfUsers.filter((f) => /\.query\(/.test(fs.readFileSync(f, 'utf8'))).map(rel)).toEqual([])
  })
})

/** Opening a library sweeps dead writers' temp files from its bookkeeping (bookkeeping-sweep.ts), on real folders. */
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { sweepBookkeepingTemps } from '../../src/main/store/bookkeeping-sweep'
import { hashTree, listFiles, tempDir } from './helpers'

const dirs: string[] = []
function dir(prefix: string): string {
  const d = tempDir(prefix)
  dirs.push(d)
  return d
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

/** A temp file name as a writer with `pid` makes it. */
const temp = (pid: number, tag: string): string => `.skillbench-tmp-${pid}-${tag}.tmp`
/** A pid no process has (above Linux's pid_max). */
const DEAD = 999_999_990

function put(root: string, rel: string, text = 'x'): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true })
  fs.writeFileSync(path.join(root, rel), text)
}

describe('sweepBookkeepingTemps', () => {
  it('removes dead writers\' temps in .skillbench/ and its folders one level down; keeps live ones, deeper ones and real files', async () => {
    const root = dir('sb-sweep-')
    put(root, `.skillbench/${temp(DEAD, 'a1')}`)
    put(root, `.skillbench/tx/${temp(DEAD, 'b2')}`)
    put(root, `.skillbench/pending/${temp(DEAD + 1, 'c3')}`)
    put(root, `.skillbench/tx/${temp(process.ppid, 'd4')}`) // a live writer (our parent)
    put(root, `.skillbench/a/b/${temp(DEAD, 'e5')}`) // two levels down: not the bookkeeping's own folders
    put(root, '.skillbench/plan.json', '{}')
    put(root, `${temp(DEAD, 'f6')}`) // the library's own folders are swept by the listing, not here
    expect(await sweepBookkeepingTemps(root)).toBe(3)
    expect(listFiles(root)).toEqual(
      [`${temp(DEAD, 'f6')}`, `.skillbench/a/b/${temp(DEAD, 'e5')}`, '.skillbench/plan.json', `.skillbench/tx/${temp(process.ppid, 'd4')}`].sort()
    )
    expect(await sweepBookkeepingTemps(root)).toBe(0)
  })

  it('no .skillbench: nothing; a .skillbench that is a link: never entered', async () => {
    expect(await sweepBookkeepingTemps(dir('sb-sweep-'))).toBe(0)
    const root = dir('sb-sweep-')
    const outside = dir('sb-sweep-outside-')
    put(outside, temp(DEAD, 'a1'))
    put(outside, `tx/${temp(DEAD, 'b2')}`)
    fs.symlinkSync(outside, path.join(root, '.skillbench'))
    const before = hashTree(outside)
    expect(await sweepBookkeepingTemps(root)).toBe(0)
    expect(hashTree(outside)).toEqual(before)
  })
})

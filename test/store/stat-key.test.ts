/** The stat key read without an fs.Stats equals what fs.lstatSync says, for every kind of entry, both ways of reading it. */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { isRegularFile, lstatKey, resetStatKeyProbe, statKeySource } from '../../src/main/store/stat-key'
import { tempDir } from './helpers'

afterAll(() => resetStatKeyProbe())

function expected(p: string): number[] | null {
  try {
    const st = fs.lstatSync(p)
    return [st.size, st.mtimeMs, st.ino, st.ctimeMs, st.mode]
  } catch {
    return null
  }
}

describe('lstatKey', () => {
  it('gives exactly the size, mtime, inode, ctime and mode of fs.lstatSync — files, folders, links (not followed), missing paths', () => {
    const dir = tempDir('sb-statkey-')
    const file = path.join(dir, 'skill_1.md')
    fs.writeFileSync(file, 'x'.repeat(1234))
    fs.utimesSync(file, new Date(1_700_000_000_123), new Date(1_700_000_000_456.789))
    fs.symlinkSync(file, path.join(dir, 'link.md'))
    fs.symlinkSync(path.join(dir, 'nowhere'), path.join(dir, 'dangling.md'))
    const paths = [file, dir, path.join(dir, 'link.md'), path.join(dir, 'dangling.md'), path.join(dir, 'missing.md'), path.join(file, 'under-a-file')]
    for (const useBinding of [true, false]) {
      resetStatKeyProbe(useBinding)
      for (const p of paths) {
        const key = new Float64Array(5)
        const ok = lstatKey(p, key)
        const want = expected(p)
        expect(ok, p).toBe(want !== null)
        if (want) expect(Array.from(key), p).toEqual(want)
      }
      // This Node's binding agrees, so it is the one in use (else every call would pay for a Stats object).
      expect(statKeySource()).toBe(useBinding ? 'binding' : 'fs')
    }
    const key = new Float64Array(5)
    lstatKey(file, key)
    expect(isRegularFile(key)).toBe(true)
    lstatKey(path.join(dir, 'link.md'), key)
    expect(isRegularFile(key)).toBe(false)
  })
})

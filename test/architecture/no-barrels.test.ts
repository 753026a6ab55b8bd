import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const MAIN = path.resolve(__dirname, '..', '..', 'src', 'main')

/** Every `index.ts` under a folder, relative to it. */
function indexFiles(dir: string, rel = ''): string[] {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const p = rel ? `${rel}/${e.name}` : e.name
    return e.isDirectory() ? indexFiles(dir, p) : e.name === 'index.ts' ? [p] : []
  })
}

describe('barrels', () => {
  it('src/main has none: folders are entered by their files (cli/index.ts is the CLI bundle\'s entry, not a barrel)', () => {
    // A barrel makes a command that needs one module load the whole folder (start time is measured), and
    // a folder with one would be entered both ways.
    expect(indexFiles(MAIN)).toEqual(['cli/index.ts'])
  })
})

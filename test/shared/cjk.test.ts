/**
 * How CJK text is cut is said once (src/shared/cjk.ts) for the search tokenizer and the library map's cluster
 * names: no other source spells the script class or the particles, and both cut at every particle alike.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { titleWords } from '../../src/renderer/features/overview/cluster-names'
import { tokenize } from '../../src/main/text/tokenize'
import { CJK_CLASS, CJK_PARTICLES } from '../../src/shared/cjk'

const SRC = path.join(__dirname, '../../src')

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    return e.isDirectory() ? sources(p) : /\.tsx?$/.test(e.name) ? [p] : []
  })
}

describe('shared/cjk', () => {
  it('is the only source that spells the CJK scripts or the particles', () => {
    const spelled = sources(SRC)
      .filter((file) => {
        const text = fs.readFileSync(file, 'utf8')
        return text.includes('p{Script=Hiragana}') || text.includes(CJK_PARTICLES.slice(0, 6))
      })
      .map((file) => path.relative(SRC, file).split(path.sep).join('/'))
    expect(spelled).toEqual(['shared/cjk.ts'])
  })

  it('the tokenizer and the map names cut a run at every particle alike', () => {
    expect(CJK_CLASS).toContain('Han')
    for (const p of CJK_PARTICLES) {
      const title = `排序${p}方法`
      const words = titleWords(title)
      expect(words).toContain('排序')
      expect(words).toContain('方法')
      expect(words.some((w) => w.includes(p))).toBe(false)
      const terms = tokenize(title)
      expect(terms).toContain('排序')
      expect(terms).toContain('方法')
      expect(terms.some((t) => t.includes(p))).toBe(false)
    }
  })
})

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sortIdsByText } from '../../src/main/text/lexical-order'

/** The order the index kept its terms in before: a comparator of strings. */
function byComparator(ids: readonly number[], texts: readonly string[]): number[] {
  return [...ids].sort((a, b) => (texts[a]! < texts[b]! ? -1 : texts[a]! > texts[b]! ? 1 : 0))
}

// Texts from a few characters of every kind the order must get right: ASCII, Chinese, a surrogate pair's halves
// (lone and paired), the highest code unit, NUL.
const unit = fc.constantFrom('a', 'b', 'z', '0', 'é', '部', '署', '一', '\uffff', '\ud83d', '\ude00', '\u0000')
const join = (us: string[]): string => us.join('')
// Mostly texts of one or two units (sorted by number) with longer ones among them sharing their starts (compared as
// strings run by run), as in a bilingual vocabulary; or mostly longer texts (sorted by the comparator alone).
const mostlyShort = fc
  .tuple(
    fc.uniqueArray(fc.array(unit, { maxLength: 2 }).map(join), { minLength: 20, maxLength: 200 }),
    fc.uniqueArray(fc.array(fc.constantFrom('a', 'b', '部', '\ud83d'), { minLength: 3, maxLength: 8 }).map(join), { maxLength: 20 })
  )
  .map(([short, long]) => [...short, ...long])
const mostlyLong = fc.uniqueArray(fc.array(unit, { maxLength: 6 }).map(join), { minLength: 20, maxLength: 300 })

describe('term ids in the lexical order of their texts', () => {
  it('is exactly the order a comparator of strings gives', () => {
    fc.assert(
      fc.property(fc.oneof(mostlyShort, mostlyLong), fc.integer({ min: 0, max: 1000 }), (words, seed) => {
        // the ids in some shuffled order, as a dictionary numbers its terms in the order they were met
        const ids = words.map((_, i) => i).sort((a, b) => ((a * 7919 + seed) % 1009) - ((b * 7919 + seed) % 1009) || a - b)
        expect(sortIdsByText(ids, words)).toEqual(byComparator(ids, words))
      }),
      { numRuns: 300 }
    )
  })

  it('sorts a subset of a dictionary’s ids, the empty text first, without changing its input', () => {
    const words = ['部署', 'deploy', '', '部', 'deployment', '署超', 'a', '部署超时']
    const ids = [6, 1, 0, 3, 2, 4]
    expect(sortIdsByText(ids, words)).toEqual([2, 6, 1, 4, 3, 0])
    expect(ids).toEqual([6, 1, 0, 3, 2, 4])
  })
})

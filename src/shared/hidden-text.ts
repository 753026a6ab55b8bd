/**
 * Characters a person does not see but an agent reads: zero-width characters, Unicode tag characters (U+E0000
 * block, which spell ASCII invisibly) and bidirectional overrides (which reorder what is shown). Shared by the
 * audit (src/main/audit) and the editor, which draws them with Monaco decorations. Pure, imports nothing.
 */

export type HiddenKind = 'tag' | 'zero-width' | 'bidi'

/** One run of hidden characters on a line (columns are UTF-16 offsets, end exclusive). */
export interface HiddenRun {
  kind: HiddenKind
  /** 0-based line and UTF-16 column range of the run. */
  line: number
  start: number
  end: number
  /** What the run says: the ASCII tag characters spell, or the characters' names. */
  decoded: string
}

const ZERO_WIDTH: Record<number, string> = {
  0x200b: 'ZWSP',
  0x200c: 'ZWNJ',
  0x200d: 'ZWJ',
  0x2060: 'WJ',
  0x2061: 'FUNCTION APPLICATION',
  0x2062: 'INVISIBLE TIMES',
  0x2063: 'INVISIBLE SEPARATOR',
  0x2064: 'INVISIBLE PLUS',
  0x180e: 'MVS',
  0xfeff: 'ZWNBSP'
}

const BIDI: Record<number, string> = {
  0x202a: 'LRE',
  0x202b: 'RLE',
  0x202c: 'PDF',
  0x202d: 'LRO',
  0x202e: 'RLO',
  0x2066: 'LRI',
  0x2067: 'RLI',
  0x2068: 'FSI',
  0x2069: 'PDI'
}

/** Overrides (not mere embeddings or isolates) reverse what is shown: the Trojan Source attack. */
export const BIDI_OVERRIDES = new Set([0x202d, 0x202e])

function kindOf(cp: number): HiddenKind | null {
  if (cp >= 0xe0000 && cp <= 0xe007f) return 'tag'
  if (ZERO_WIDTH[cp] !== undefined) return 'zero-width'
  if (BIDI[cp] !== undefined) return 'bidi'
  return null
}

/** Pictographs and joiners that legitimately glue emoji (👨‍💻): a ZWJ or VS between them is not hidden text. */
function isEmojiPart(cp: number | undefined): boolean {
  if (cp === undefined) return false
  return (cp >= 0x1f000 && cp <= 0x1faff) || (cp >= 0x2600 && cp <= 0x27bf) || cp === 0xfe0f || (cp >= 0x1f3fb && cp <= 0x1f3ff) || cp === 0x2640 || cp === 0x2642
}

/** Quick test before the full scan: true when the text may hold any hidden character. */
export function mayHideText(text: string): boolean {
  return /[\u200b-\u200d\u2060-\u2064\u180e\ufeff\u202a-\u202e\u2066-\u2069]|\udb40[\udc00-\udc7f]/.test(text)
}

/** Every run of hidden characters of the text, with what it says. A BOM at the very start is not hidden text. */
export function findHiddenRuns(text: string): HiddenRun[] {
  if (!mayHideText(text)) return []
  const runs: HiddenRun[] = []
  const lines = text.split('\n')
  lines.forEach((lineText, line) => {
    let i = 0
    let prevCp: number | undefined
    while (i < lineText.length) {
      const cp = lineText.codePointAt(i)!
      const kind = kindOf(cp)
      const width = cp > 0xffff ? 2 : 1
      if (kind === null || (line === 0 && i === 0 && cp === 0xfeff)) {
        prevCp = cp
        i += width
        continue
      }
      // a run: consecutive hidden characters of the same kind
      const start = i
      const cps: number[] = []
      while (i < lineText.length) {
        const c = lineText.codePointAt(i)!
        if (kindOf(c) !== kind) break
        cps.push(c)
        i += c > 0xffff ? 2 : 1
      }
      const next = i < lineText.length ? lineText.codePointAt(i) : undefined
      const emojiGlue = kind === 'zero-width' && cps.every((c) => c === 0x200d) && isEmojiPart(prevCp) && isEmojiPart(next)
      if (!emojiGlue) runs.push({ kind, line, start, end: i, decoded: decodeRun(kind, cps) })
      prevCp = cps[cps.length - 1]
    }
  })
  return runs
}

/** What a run says: tag characters map to ASCII (U+E0041 → "A"); the others are named. */
export function decodeRun(kind: HiddenKind, cps: readonly number[]): string {
  if (kind === 'tag') {
    return cps
      .map((c) => c - 0xe0000)
      .filter((c) => c >= 0x20 && c < 0x7f)
      .map((c) => String.fromCharCode(c))
      .join('')
  }
  if (kind === 'zero-width') {
    const bits = decodeZeroWidthBits(cps)
    if (bits) return bits
  }
  const names = kind === 'bidi' ? BIDI : ZERO_WIDTH
  return cps.map((c) => `<${names[c] ?? `U+${c.toString(16).toUpperCase()}`}>`).join('')
}

/**
 * Zero-width steganography writes bytes as bits, one invisible character per bit (ZWSP/ZWNJ for 0/1, or ZWNJ/ZWJ).
 * Returns the message when a long run reads as printable ASCII either way, else null.
 */
function decodeZeroWidthBits(cps: readonly number[]): string | null {
  if (cps.length < 16 || cps.length % 8 !== 0) return null
  const kinds = [...new Set(cps)]
  if (kinds.length !== 2) return null
  const [a, b] = kinds.sort((x, y) => x - y) as [number, number]
  for (const zero of [a, b]) {
    let out = ''
    for (let i = 0; i < cps.length; i += 8) {
      let byte = 0
      for (let j = 0; j < 8; j++) byte = (byte << 1) | (cps[i + j] === zero ? 0 : 1)
      if (byte < 0x20 || byte >= 0x7f) {
        out = ''
        break
      }
      out += String.fromCharCode(byte)
    }
    if (out) return out
  }
  return null
}

/** The line as an agent reads it, each hidden run replaced by a visible ⟦…⟧ mark of what it says. */
export function revealLine(lineText: string, runs: readonly HiddenRun[]): string {
  let out = ''
  let at = 0
  for (const r of [...runs].sort((x, y) => x.start - y.start)) {
    out += lineText.slice(at, r.start) + `⟦${r.decoded}⟧`
    at = r.end
  }
  return out + lineText.slice(at)
}

/**
 * Runs of word characters, for code that finds words with a Unicode regular expression: its words never cross a
 * run of the ASCII characters it counts as word characters and of non-ASCII ones (any of which it may count). A
 * run of ASCII characters only is then read by character code; only the runs holding other characters need the
 * regular expression. Pure.
 */

/** Which ASCII characters are word characters: letters and digits, plus each character of `extra`. */
export function asciiWordChars(extra: string): Uint8Array {
  const table = new Uint8Array(128)
  for (let c = 48; c <= 57; c++) table[c] = 1
  for (let c = 65; c <= 90; c++) table[c] = 1
  for (let c = 97; c <= 122; c++) table[c] = 1
  for (let i = 0; i < extra.length; i++) table[extra.charCodeAt(i) & 127] = 1
  return table
}

/**
 * Calls `ascii(start, end)` for each maximal run text[start, end) of word characters (`wordChars` for ASCII, every
 * non-ASCII character) that is all ASCII, `other(start, end)` for each run holding a non-ASCII character, in order.
 */
export function forEachWordRun(text: string, wordChars: Uint8Array, ascii: (start: number, end: number) => void, other: (start: number, end: number) => void): void {
  const len = text.length
  let i = 0
  while (i < len) {
    let c = text.charCodeAt(i)
    if (c < 128 && wordChars[c] === 0) {
      i++
      continue
    }
    const start = i
    let plain = c < 128
    for (i++; i < len; i++) {
      c = text.charCodeAt(i)
      if (c >= 128) plain = false
      else if (wordChars[c] === 0) break
    }
    if (plain) ascii(start, i)
    else other(start, i)
  }
}

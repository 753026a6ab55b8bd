import fs from 'node:fs'
import path from 'node:path'

/** `../shared/data/real` seen from the project root; absent on a user's fresh clone. */
export const REAL_DATA = path.resolve(__dirname, '..', '..', '..', 'shared', 'data', 'real')

/** True when the real public data is present (CI and developers' machines). */
export const HAS_REAL_DATA = fs.existsSync(REAL_DATA)

if (!HAS_REAL_DATA) {
  console.warn(`[skillbench tests] ${REAL_DATA} is absent: tests on real public data are skipped`)
}

/** Path of a file or folder inside the real data. */
export function realPath(...parts: string[]): string {
  return path.join(REAL_DATA, ...parts)
}

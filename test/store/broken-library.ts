/** A library of files that do not load, one of each way (load-reasons-coded.test.ts, search/cache-reasons.test.ts). */
import fs from 'node:fs'
import path from 'node:path'
import { tempDir } from './helpers'

const skill = (id: string, extra = ''): string => `---\nskill_id: '${id}'\ntitle: Skill ${id}\n${extra}---\n\nbody ${id}\n`

/** A library with one good skill and one file of each way of not loading. */
export function makeBrokenLibrary(): string {
  const dir = tempDir('sb-reasons-')
  const put = (rel: string, text: string | Buffer): void => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
    fs.writeFileSync(path.join(dir, rel), text)
  }
  put('skill_1.md', skill('1'))
  put('skill_2.md', `---\nskill_id: '2'\ntitle: a\ntitle: b\n---\nbody\n`)
  put('skill_3.md', 'just words, no front matter\n')
  put('skill_4.md', Buffer.concat([Buffer.from(`---\nskill_id: '4'\ntitle: `), Buffer.from([0xff, 0xfe]), Buffer.from('\n---\nbody\n')]))
  put('skill_5.md', `---\nskill_id: '5'\nbase: &b x\ntitle: *b\n---\nbody\n`)
  put('skill_6.md', `---\nskill_id: 12ab\ntitle: six\n---\nbody\n`)
  put('skill_7.md', `---\nskill_id: '7'\ntitle: "open\n---\nbody\n`)
  put('skill_8.md', skill('1'))
  fs.symlinkSync(path.join(dir, 'skill_1.md'), path.join(dir, 'skill_9.md'))
  fs.mkdirSync(path.join(dir, 'skill_10.md'))
  return dir
}

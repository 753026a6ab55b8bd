import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_METHODS, type LibraryInfo, type SkillListResult } from '../../src/shared/api'
import { openTestBench, type TestBench } from './helpers'

/** Methods that take a folder the user chose on purpose (or start long jobs): fuzzed without path fields. */
const USER_FOLDER_METHODS = new Set(['roots.add', 'roots.remove', 'libraries.open', 'reflect.start', 'curate.start', 'llm.test', 'settings.setApiKey', 'memory.setWorkspace', 'sessions.add', 'sessions.remove', 'sessions.reflect'])

function treeHash(dir: string): string {
  const h = createHash('sha256')
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name)
      h.update(path.relative(dir, p))
      if (e.isDirectory()) {
        walk(p)
      } else if (e.isFile()) {
        h.update(fs.readFileSync(p))
      }
    }
  }
  walk(dir)
  return h.digest('hex')
}

let bench: TestBench
let sibling: string
let library: string
let skillIds: string[]

beforeAll(async () => {
  bench = await openTestBench()
  // remembered, so the settings file exists before the fuzz (which may only change it, never add files)
  await bench.call('roots.add', { path: bench.root })
  // a folder right next to the data root: nothing may ever write there
  sibling = path.join(path.dirname(bench.root), 'data-evil')
  fs.mkdirSync(sibling)
  fs.writeFileSync(path.join(sibling, 'skill_x.md'), '---\nskill_id: "1"\ntitle: outside\n---\nbody\n')
  const libs = await bench.call<LibraryInfo[]>('libraries.list')
  library = libs[0]!.path
  skillIds = (await bench.call<SkillListResult>('skills.list', { library })).skills.map((s) => s.skill_id)
})

afterAll(async () => {
  await bench.wb.dispose()
})

describe('dispatch under hostile input', () => {
  it('never throws, always answers {code, message}, and never writes outside the data root', async () => {
    const outsideBefore = treeHash(sibling)
    const settingsBefore = fs.readdirSync(bench.settingsDir)
    const pathLike = fc.oneof(
      fc.constantFrom(
        library,
        bench.root,
        '../../etc/passwd',
        '/etc/passwd',
        sibling,
        path.join(library, '..', '..', '..', 'data-evil'),
        `${library}/../../../data-evil`,
        '%2e%2e/%2e%2e',
        '..\\..\\windows',
        'legacy/../../x',
        '',
        '\u0000'
      ),
      fc.string({ maxLength: 40 })
    )
    const idLike = fc.oneof(fc.constantFrom(...skillIds, '0', '../1', '1/../../2', '99999999999999999999999'), fc.string({ maxLength: 25 }))
    const value = fc.oneof(pathLike, idLike, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(pathLike, { maxLength: 3 }), fc.object({ maxDepth: 2 }))
    const fields = ['library', 'root', 'taskPath', 'file', 'skillId', 'text', 'baseHash', 'rating', 'top', 'includeLegacy', 'proposalId', 'entryId', 'jobId', 'start', 'maxBytes', 'edited', 'patch', 'path', 'tasks', 'user', 'force', 'llm', 'apiKey', 'name', 'id', 'source', 'dir', 'includeToday']
    const input = fc.oneof(
      fc.anything({ maxDepth: 2 }),
      fc.dictionary(fc.constantFrom(...fields), value, { maxKeys: 6 })
    )
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...API_METHODS.filter((m) => !USER_FOLDER_METHODS.has(m))), input, async (method, raw) => {
        let safe = raw
        if (method === 'settings.update' && raw && typeof raw === 'object' && 'patch' in raw) {
          // data roots are user-chosen folders: covered by their own tests
          safe = { patch: { ...((raw as { patch?: object }).patch ?? {}), dataRoots: undefined } }
        }
        const answer = await bench.wb.dispatch(method, safe)
        if (!answer.ok) {
          expect(typeof answer.error.code).toBe('string')
          expect(typeof answer.error.message).toBe('string')
          expect(answer.error.code).not.toBe('internal')
        }
      }),
      { numRuns: 1500 }
    )
    expect(treeHash(sibling)).toBe(outsideBefore)
    expect(fs.readdirSync(bench.settingsDir).sort()).toEqual(settingsBefore.sort())
  })
})

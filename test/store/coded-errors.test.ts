import fs from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { englishText } from '../../src/shared/error-codes'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { openLibrary, type SkillLibrary } from '../../src/main/store/library'
import { checkRelPath } from '../../src/main/store/paths'
import { parseSkillsLock } from '../../src/main/store/skills-lock'
import { StoreError } from '../../src/main/store/types'
import { copyTree, FIXTURE_LIBRARY } from './helpers'
import { thrownAs } from '../helpers/thrown'

let dir: string
let lib: SkillLibrary

beforeEach(async () => {
  dir = copyTree(FIXTURE_LIBRARY)
  lib = await openLibrary(dir)
})

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

const storeErrorOf = (run: () => unknown): Promise<StoreError> => thrownAs(StoreError, run)

describe('store errors carry their code (shared/error-codes.ts)', () => {
  it('a refused write: the code, the params, and the English of the template, same words as before', async () => {
    const err = await storeErrorOf(() => lib.writeRaw('.skillbench/notes.md', 'x'))
    expect(err.messageCode).toBe('file.bookkeeping')
    expect(err.message).toBe(".skillbench/ holds the library's bookkeeping: it is not written as a file")
    expect(englishText(err)).toBe(err.message)
  })

  it('a nested reason keeps its own code, so a client words the whole message in its language', async () => {
    const err = await storeErrorOf(() => checkRelPath('a/../b'))
    expect(err.message).toBe('path refused ("a/../b"): "..", "." and empty path segments are not allowed')
    expect(err).toMatchObject({ messageCode: 'relpath.refused_named', params: { why: { messageCode: 'relpath.dot_segment' } } })
    expect(translateMessage(err, err.message, 'zh')).toBe('路径被拒绝（"a/../b"）：不允许“..”、“.”和空的路径段')
  })

  it('skills.lock problems say where, by code', async () => {
    const err = await storeErrorOf(() => parseSkillsLock(JSON.stringify({ version: 1, skills: { pdf: { source: 'x', ref: 'main', commit: 'abc', path: 'pdf', hash: 'h' } } })))
    expect(err.message).toBe('skills.lock: pdf: commit "abc" is not a full commit id')
    expect(err.messageCode).toBe('lockfile.problem')
  })
})

import fs from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { englishText } from '../../src/shared/error-codes'
import { messageRefOf } from '../../src/shared/message-match'
import { translateMessage, translateText } from '../../src/renderer/i18n/messages-errors'
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

  it('a malformed risk record in skills.lock says so by code (lockfile.risk_problem, reached by code only)', async () => {
    const entry = { source: 'x', ref: 'main', commit: 'a'.repeat(40), path: 'helper', hash: `sha256:${'0'.repeat(64)}` }
    const err = await storeErrorOf(() => parseSkillsLock(JSON.stringify({ version: 1, skills: { helper: { ...entry, risk: { allowed_by: 'x' } } } })))
    expect(err.message).toBe('skills.lock: helper: risk needs "allowed_by" and "allowed_at" as text')
    expect(err).toMatchObject({ messageCode: 'lockfile.problem', params: { file: 'skills.lock', why: { messageCode: 'lockfile.risk_problem', params: { name: 'helper', why: { messageCode: 'lockfile.risk_allowed' } } } } })
    expect(englishText(err)).toBe(err.message)
    expect(translateMessage(err, err.message, 'zh')).toBe('skills.lock：helper：风险记录需要文本形式的“allowed_by”和“allowed_at”')
    // "{name}: risk {why}" begins with a param: an unrelated "x: risk y" is not taken for it, and stays as it came
    for (const text of ['x: risk y', 'deploy: risk of data loss', 'helper: risk needs "allowed_by" and "allowed_at" as text']) {
      expect(messageRefOf(text)?.messageCode, text).not.toBe('lockfile.risk_problem')
    }
    expect(messageRefOf('x: risk y')).toBeNull()
    expect(translateText('deploy: risk of data loss', 'zh')).toBe('deploy: risk of data loss')
  })
})

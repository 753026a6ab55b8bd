/** The skills of a library: list, read, query, save, rate, fix a file as text, retire and restore. */
import path from 'node:path'
import { promises as fsp } from 'node:fs'
import type { ApiHandlers, SkillDocument, SkillFileText } from '../../../shared/api'
import { coded } from '../../../shared/error-codes'
import type { Skill } from '../../../shared/types'
import { codedReason, reasonRef } from '../../../shared/coded-reason'
import { hashBytes } from '../../store/load'
import { parseReasonParam, parseSkillText } from '../../store/skill-file'
import { StoreError, type SkillStore } from '../../store/types'
import { applyUsageDrift, formatOfPath, usageDrift } from '../../store/usage-drift'
import { recoverTransactions } from '../../review/transactions'
import { readCodeFile } from '../code-files'
import type { WorkbenchContext } from '../context'
import { badRequest } from '../errors'

export type SkillMethods =
  | 'skills.readCode'
  | 'skills.list'
  | 'skills.dismissProblems'
  | 'skills.get'
  | 'skills.query'
  | 'skills.save'
  | 'skills.rate'
  | 'skills.readFile'
  | 'skills.saveFile'
  | 'skills.delete'
  | 'skills.restore'

export function skillHandlers(ctx: WorkbenchContext): Pick<ApiHandlers, SkillMethods> {
  const { registry, core, storeFor } = ctx
  /** The store for a write: a change a crash interrupted is finished first (as accept and undo do), so an edit never lands on its half. */
  const writableStore = async (library: string): Promise<SkillStore> => {
    const store = await storeFor(library)
    await recoverTransactions(store.root)
    return store
  }
  return {
    'skills.readCode': async ({ library, path: rel }) => {
      const info = await registry.requireLibrary(library)
      return readCodeFile(info.path, rel)
    },

    'skills.list': async ({ library, includeLegacy }) => {
      const info = await registry.requireLibrary(library)
      if (!info.exists) {
        return { skills: [], errors: [] }
      }
      const root = await fsp.realpath(info.path)
      // Only reads (a change a crash interrupted is reported, the next write finishes it). From the library's search
      // index (warm from the cache folder): the rows without opening the store, which reads every file.
      const list = await core.listSkills(root, includeLegacy ?? false)
      const found = await core.libraryProblems?.(root)
      if (!found || found.problems.length === 0) return list
      return { ...list, problems: found.problems, ...(found.dismissUpTo !== undefined ? { problemsDismissUpTo: found.dismissUpTo } : {}) }
    },

    'skills.dismissProblems': async ({ library, upTo }) => {
      const info = await registry.requireLibrary(library)
      const root = await fsp.realpath(info.path)
      if (!core.dismissLibraryProblems) return { seenUpTo: 0 }
      return { seenUpTo: await core.dismissLibraryProblems(root, upTo) }
    },

    'skills.get': async ({ library, skillId, includeLegacy }) => {
      const store = await storeFor(library)
      const skill = await store.get(skillId, { includeLegacy: includeLegacy ?? true })
      return documentOf(store, skill)
    },

    'skills.query': async ({ library, text, top }) => {
      const store = await storeFor(library)
      return core.query(store, text, top ?? 20)
    },

    'skills.save': async ({ library, skillId, text, baseHash, baseText }) => {
      const store = await writableStore(library)
      const skill = await store.get(skillId, { includeLegacy: true })
      const problem = core.checkSkillText(text, skill)
      if (problem) {
        throw badRequest(coded('skill.not_saved', { reason: problem }))
      }
      try {
        await store.writeRaw(skill.path, text, baseHash)
      } catch (err) {
        // Only uses were counted into the file since the editor loaded it (a fold): keep them, save the edit.
        const merged = err instanceof StoreError && err.code === 'conflict' && baseText !== undefined ? await withUsesSince(store, skill.path, baseText, baseHash, text) : null
        if (!merged) throw err
        await store.writeRaw(skill.path, merged.text, merged.hash)
      }
      return documentOf(store, await store.get(skillId, { includeLegacy: true }))
    },

    'skills.rate': async ({ library, skillId, rating }) => {
      const store = await writableStore(library)
      return core.rate(store, skillId, rating)
    },

    'skills.readFile': async ({ library, path: rel }) => {
      const store = await storeFor(library)
      requireSkillFilePath(rel)
      const { text, hash } = await store.readRaw(rel)
      return skillFileText(store, rel, text, hash)
    },

    'skills.saveFile': async ({ library, path: rel, text, baseHash }) => {
      const store = await writableStore(library)
      requireSkillFilePath(rel)
      const parsed = parseSkillText(text)
      if (!parsed.ok) {
        throw badRequest(coded('skill.not_saved', { reason: parseReasonParam(parsed) }))
      }
      const { hash } = await store.writeRaw(rel, text, baseHash)
      return skillFileText(store, rel, text, hash)
    },

    'skills.delete': async ({ library, skillId }) => {
      const store = await writableStore(library)
      return store.moveToLegacy(skillId)
    },

    'skills.restore': async ({ library, skillId }) => {
      const store = await storeFor(library)
      const skill = await core.restore(store, skillId)
      return documentOf(store, skill)
    }
  }
}

async function documentOf(store: SkillStore, skill: Skill): Promise<SkillDocument> {
  const { text } = await store.readRaw(skill.path)
  const relatedFiles = skill.related_code
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
  return { skill, text, relatedFiles }
}

/**
 * `edited` with the uses counted into the file since `baseText` was read, when nothing else changed there; null
 * when the file changed otherwise (a real conflict).
 */
async function withUsesSince(store: SkillStore, rel: string, baseText: string, baseHash: string, edited: string): Promise<{ text: string; hash: string } | null> {
  if (hashBytes(baseText) !== baseHash) return null
  const current = await store.readRaw(rel)
  const format = formatOfPath(rel)
  const drift = usageDrift(baseText, current.text, format)
  const text = drift ? applyUsageDrift(edited, drift, format) : null
  return text === null ? null : { text, hash: current.hash }
}

/** A skill file's text with what the store says about it: its load error (placed on a line) or its skill id. */
async function skillFileText(store: SkillStore, rel: string, text: string, hash: string): Promise<SkillFileText> {
  const list = await store.list({ includeLegacy: true })
  const error = list.errors.find((e) => e.path === rel)
  const skill = list.skills.find((s) => s.path === rel)
  if (!error && skill) {
    return { path: rel, text, hash, problem: null, skillId: skill.skill_id }
  }
  const parsed = parseSkillText(text)
  const why = error ?? (parsed.ok ? codedReason(coded('skill.does_not_load')) : parsed)
  const ref = reasonRef(why)
  // loaded here: it brings the full YAML parser (~60–115 ms), which the first screens do not need
  const at = parsed.ok ? null : (await import('../../../shared/problem-position')).locateSkillProblem(text)
  return { path: rel, text, hash, problem: { reason: why.reason, ...(at ? { line: at.line, column: at.column } : {}), ...(ref ? { messageCode: ref.messageCode, params: ref.params } : {}) } }
}

/** Only skill files (`skill_*.md`, `SKILL.md`) can be read or fixed as text through the API. */
function requireSkillFilePath(rel: string): void {
  const name = path.posix.basename(rel.replace(/\\/g, '/'))
  if (!(/^skill_.*\.md$/.test(name) || name === 'SKILL.md')) {
    throw badRequest(coded('skill.not_skill_file', { path: rel }))
  }
}

/**
 * Reading skill files into index documents, the expensive part of a cold build (parsing, then tokenizing): done
 * here in one place for the calling thread and for worker threads alike. Term ids are
 * local to one batch; the index maps them to its own vocabulary.
 */
import { threadId } from 'node:worker_threads'
import type { Skill } from '../../shared/types'
import type { Candidate } from '../store/walk'
import { loadSkillFiles } from '../store/load'
import { reasonForCache } from '../../shared/coded-reason'
import { docTermsOf } from '../text/doc-terms'
import type { TermDictionary } from '../text/tokenize'
import { indexedText, listedSkill, skillPreview } from './skill-text'

/** One file as read: its stat key, what a listing shows (or why it does not load), its terms (local ids). */
export interface ReadDoc {
  rel: string
  size: number
  mtimeMs: number
  ino: number
  ctimeMs: number
  ok: boolean
  legacy: boolean
  id: string
  /** ok: the ListedSkill as JSON; else why the file does not load (reasonForCache: words and code). */
  json: string
  /** The start of the body as one line, for list rows ('' when the file does not load). */
  preview: string
}

/** A batch of read files; document k's terms are ids[ptr[k]..ptr[k+1]) into `terms`, with their counts. */
export interface ReadBatch {
  docs: ReadDoc[]
  terms: string[]
  ptr: Uint32Array
  ids: Uint32Array
  counts: Uint32Array
  /** The thread that read it (0: the main thread). */
  thread: number
}

/**
 * Reads the files into a batch. With `dict` (the index's own dictionary, on the thread that owns it) the batch's
 * term ids are that dictionary's and `terms` is its own array: nothing is mapped when the index takes the batch.
 */
export function readDocs(candidates: readonly Candidate[], dict?: TermDictionary): ReadBatch {
  const docs: ReadDoc[] = []
  const texts: string[] = []
  const textOf: number[] = [] // document k's text index, -1 when it has no terms
  const files = loadSkillFiles(candidates)
  for (let k = 0; k < candidates.length; k++) {
    const c = candidates[k]!
    const loaded = files[k]!
    const st = loaded.stat
    const base = { rel: c.rel, size: st?.size ?? -1, mtimeMs: st?.mtimeMs ?? -1, ino: st?.ino ?? -1, ctimeMs: st?.ctimeMs ?? -1, legacy: c.legacy }
    if (!loaded.result.ok) {
      docs.push({ ...base, ok: false, id: '', json: reasonForCache(loaded.result), preview: '' })
      textOf.push(-1)
      continue
    }
    const skill = loaded.result.skill
    docs.push({ ...base, ok: true, id: skill.skill_id, json: JSON.stringify(listedSkill(skill)), preview: skillPreview(skill.body) })
    // Retired skills are listed but never ranked.
    textOf.push(c.legacy ? -1 : texts.push(indexedText(skill)) - 1)
  }
  return withTerms(docs, texts, textOf, dict)
}

/**
 * Skills already in memory (a store's listing, no files read) as one batch, in their order: what a ranking over
 * them needs. No stat keys and no listing text: such a batch is only ranked, never listed or saved.
 */
export function readSkills(skills: readonly Skill[]): ReadBatch {
  const docs = skills.map((s): ReadDoc => ({ rel: s.path, size: -1, mtimeMs: -1, ino: -1, ctimeMs: -1, ok: true, legacy: s.legacy, id: s.skill_id, json: '', preview: '' }))
  const texts: string[] = []
  const textOf = skills.map((s) => (s.legacy ? -1 : texts.push(indexedText(s)) - 1))
  return withTerms(docs, texts, textOf)
}

/** The batch of these documents with the terms of `texts` (document k's is `texts[textOf[k]]`; -1: none). */
function withTerms(docs: ReadDoc[], texts: string[], textOf: readonly number[], dict?: TermDictionary): ReadBatch {
  // The index builder's pass 1: each document's distinct terms with counts, words stemmed once per batch.
  const terms = docTermsOf(texts, { dict })
  const ptr = new Uint32Array(docs.length + 1)
  let n = 0
  docs.forEach((_, k) => {
    const t = textOf[k]!
    if (t >= 0) n += terms.docPtr[t + 1]! - terms.docPtr[t]!
    ptr[k + 1] = n
  })
  const ids = new Uint32Array(n)
  const counts = new Uint32Array(n)
  docs.forEach((_, k) => {
    const t = textOf[k]!
    if (t < 0) return
    const from = terms.docPtr[t]!
    const to = terms.docPtr[t + 1]!
    ids.set(terms.entTerm.subarray(from, to), ptr[k]!)
    counts.set(terms.entCount.subarray(from, to), ptr[k]!)
  })
  return { docs, terms: terms.dict.terms, ptr, ids, counts, thread: threadId }
}

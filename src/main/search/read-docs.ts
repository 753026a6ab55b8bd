/**
 * Reading skill files into index documents, the expensive part of a cold build (Chinese word segmentation costs
 * ~1.5 µs a character): done here in one place for the calling thread and for worker threads alike. Term ids are
 * local to one batch; the index maps them to its own vocabulary.
 */
import { threadId } from 'node:worker_threads'
import type { Candidate } from '../store/walk'
import { loadSkillFile } from '../store/load'
import { TermDictionary, TermIdBuffer } from '../text/tokenize'
import { indexedText, listedSkill } from './skill-text'

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
  json: string
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

export function readDocs(candidates: readonly Candidate[]): ReadBatch {
  const dict = new TermDictionary()
  const buf = new TermIdBuffer()
  const docs: ReadDoc[] = []
  const ptr = new Uint32Array(candidates.length + 1)
  let ids = new Uint32Array(candidates.length * 64 + 16)
  let counts = new Uint32Array(ids.length)
  let n = 0
  let countOf = new Uint32Array(1024)
  candidates.forEach((c, k) => {
    const loaded = loadSkillFile(c)
    const st = loaded.stat
    const base = { rel: c.rel, size: st?.size ?? -1, mtimeMs: st?.mtimeMs ?? -1, ino: st?.ino ?? -1, ctimeMs: st?.ctimeMs ?? -1, legacy: c.legacy }
    if (!loaded.result.ok) {
      docs.push({ ...base, ok: false, id: '', json: loaded.result.reason })
    } else {
      const skill = loaded.result.skill
      docs.push({ ...base, ok: true, id: skill.skill_id, json: JSON.stringify(listedSkill(skill)) })
      if (!c.legacy) {
        buf.length = 0
        dict.addText(indexedText(skill), buf)
        if (dict.terms.length > countOf.length) {
          const next = new Uint32Array(Math.max(dict.terms.length, countOf.length * 2))
          next.set(countOf)
          countOf = next
        }
        if (n + buf.length > ids.length) {
          const size = Math.max(ids.length * 2, n + buf.length)
          const ni = new Uint32Array(size)
          ni.set(ids.subarray(0, n))
          ids = ni
          const nc = new Uint32Array(size)
          nc.set(counts.subarray(0, n))
          counts = nc
        }
        // Distinct terms in first-seen order, then their counts (the index only needs the pairs).
        const first = n
        for (let i = 0; i < buf.length; i++) {
          const t = buf.ids[i]!
          if (countOf[t] === 0) ids[n++] = t
          countOf[t]!++
        }
        for (let e = first; e < n; e++) {
          counts[e] = countOf[ids[e]!]!
          countOf[ids[e]!] = 0
        }
      }
    }
    ptr[k + 1] = n
  })
  return { docs, terms: dict.terms, ptr, ids: ids.slice(0, n), counts: counts.slice(0, n), thread: threadId }
}

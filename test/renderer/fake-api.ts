/**
 * A fake `SkillbenchApi` for renderer tests: an in-memory library that behaves like the real core
 * where the UI depends on it (hash-based conflict detection, rating formula, legacy moves), plus
 * per-test overrides. Every call is recorded; `emit` pushes an event as the host would.
 */
import { ApiError } from '../../src/shared/api'
import type { ApiEvent, ApiHandlers, ApiInput, ApiMethod, ApiOutput, LogChunk, PublicSettings, SkillbenchApi, SkillDocument, SkillSummary } from '../../src/shared/api'
import type { Skill, SkillMeta } from '../../src/shared/types'
import { DEFAULT_SETTINGS } from '../../src/shared/types'

export const LIB = '/data/alice/general/experience'
export const ROOT = '/data'

/** FNV-1a, hex: stands in for sha256 (only equality matters to the UI). */
export function fakeHash(text: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h.toString(16).padStart(8, '0')
}

/** A skill file's text from its meta and body, in the AGIAgent layout. */
export function skillText(meta: SkillMeta, body: string): string {
  // JSON values are valid YAML, and much faster than a YAML serializer for 10,000 skills.
  const lines = Object.entries(meta).map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
  return `---\n${lines.join('\n')}\n---\n\n${body}\n`
}

export function makeMeta(i: number, over: Partial<SkillMeta> = {}): SkillMeta {
  return {
    skill_id: String(1_700_000_000 + i),
    title: `Skill number ${i}`,
    usage_conditions: `Use for case ${i}`,
    quality_index: 0.5,
    fetch_count: 0,
    related_code: '',
    task_directories: [`output_2026010${i % 10}_120000`],
    created_at: new Date(Date.UTC(2026, 0, 1 + (i % 28))).toISOString(),
    updated_at: new Date(Date.UTC(2026, 0, 1 + (i % 28))).toISOString(),
    last_used_at: null,
    user_preferences: '',
    ...over
  }
}

interface StoredSkill {
  meta: SkillMeta
  body: string
  text: string
  legacy: boolean
  path: string
}

/** An in-memory skill library. */
export class FakeLibrary {
  readonly skills = new Map<string, StoredSkill>()

  add(meta: SkillMeta, body = `Body of ${meta.title}.`, legacy = false): StoredSkill {
    const stored = { meta, body, text: skillText(meta, body), legacy, path: `${legacy ? 'legacy/' : ''}skill_${meta.skill_id}.md` }
    this.skills.set(meta.skill_id, stored)
    return stored
  }

  /** Changes a file "on disk" behind the UI's back. */
  touch(skillId: string, text: string): void {
    this.require(skillId).text = text
  }

  require(skillId: string): StoredSkill {
    const s = this.skills.get(skillId)
    if (!s) throw new ApiError('not_found', `no skill ${skillId}`)
    return s
  }

  skill(s: StoredSkill): Skill {
    return { ...s.meta, format: 'agiagent', path: s.path, body: s.body, hash: fakeHash(s.text), legacy: s.legacy }
  }

  summary(s: StoredSkill): SkillSummary {
    const { body, ...rest } = this.skill(s)
    return { ...rest, preview: body.slice(0, 100), bodyChars: body.length }
  }

  doc(skillId: string): SkillDocument {
    const s = this.require(skillId)
    return { skill: this.skill(s), text: s.text, relatedFiles: [] }
  }
}

export const PUBLIC_SETTINGS: PublicSettings = {
  ...DEFAULT_SETTINGS,
  dataRoots: [ROOT],
  llm: { ...DEFAULT_SETTINGS.llm, hasApiKey: false, apiKeyHint: '', keyStorage: 'file-0600' }
}

/** Handlers over a FakeLibrary for the methods most screens need. */
export function libraryHandlers(lib: FakeLibrary): Partial<ApiHandlers> {
  let settings = structuredClone(PUBLIC_SETTINGS)
  return {
    'app.info': async () => ({ version: '0.1.0', transport: 'web', platform: 'linux', settingsPath: '/home/u/.config/skillbench/settings.json', runId: 'run1' }),
    'settings.get': async () => settings,
    'settings.update': async ({ patch }) => {
      settings = { ...settings, ...patch, llm: { ...settings.llm, ...patch.llm }, thresholds: { ...settings.thresholds, ...patch.thresholds } } as PublicSettings
      return settings
    },
    'libraries.list': async () => [{ path: LIB, label: 'alice', root: ROOT, user: 'alice', origin: 'root', exists: true }],
    'roots.list': async () => [{ path: ROOT, exists: true, users: ['alice'], taskCount: 0, remembered: true, thisRunOnly: false }],
    'jobs.list': async () => [],
    'sessions.list': async () => [],
    'usage.get': async () => ({ skills: [], baseline: { tasks: 0, completed: 0, failed: 0, interrupted: 0, corrected: 0 }, since: null, generatedAt: new Date(0).toISOString(), sources: [], problems: [], rules: { minUses: 5, minBaseline: 5, margin: 0.2 } }),
    'skills.list': async ({ includeLegacy }) => ({
      skills: [...lib.skills.values()].filter((s) => includeLegacy || !s.legacy).map((s) => lib.summary(s)),
      errors: []
    }),
    'skills.get': async ({ skillId }) => lib.doc(skillId),
    'audit.skill': async () => ({ findings: [] }),
    'audit.library': async () => ({ skills: lib.skills.size, counts: { high: 0, medium: 0, low: 0 }, flagged: [], cached: 0 }),
    'skills.save': async ({ skillId, text, baseHash }) => {
      const s = lib.require(skillId)
      if (fakeHash(s.text) !== baseHash) throw new ApiError('conflict', `${s.path} changed on disk`)
      s.text = text
      return lib.doc(skillId)
    },
    'skills.rate': async ({ skillId, rating }) => {
      const s = lib.require(skillId)
      const before = s.meta.quality_index
      const after = Math.round((0.7 * before + 0.3 * rating) * 1000) / 1000
      s.meta = { ...s.meta, quality_index: after }
      s.text = skillText(s.meta, s.body)
      return { skill_id: skillId, before, after }
    },
    'skills.restore': async ({ skillId }) => {
      const s = lib.require(skillId)
      s.legacy = false
      s.path = s.path.replace(/^legacy\//, '')
      return lib.doc(skillId)
    },
    'skills.delete': async ({ skillId }) => {
      const s = lib.require(skillId)
      const from = s.path
      s.legacy = true
      s.path = `legacy/${s.path}`
      return { from, to: s.path }
    }
  }
}

/**
 * A window of an ASCII log as the core cuts it: from a byte offset (`start`), from the start of the line holding
 * `at`, or from a line number; ending after a newline (or exactly at `end`); knowing its first line's number.
 * `cap` makes windows small so paging happens in tests.
 */
export function fakeLogWindow(text: string, file: string, files: string[], input: { start?: number; at?: number; line?: number; end?: number; maxBytes?: number }, cap = Infinity): LogChunk {
  const len = text.length
  const lineStart = (pos: number): number => (pos <= 0 ? 0 : text.lastIndexOf('\n', pos - 1) + 1)
  let start: number
  if (input.line !== undefined) {
    start = 0
    for (let n = 1; n < input.line && start < len; n++) {
      const nl = text.indexOf('\n', start)
      start = nl === -1 ? len : nl + 1
    }
  } else if (input.at !== undefined) start = lineStart(Math.min(input.at, len))
  else start = Math.min(input.start ?? 0, len)
  let end = input.end ?? Math.min(len, start + Math.min(input.maxBytes ?? 256 * 1024, cap))
  if (input.end === undefined && end < len) {
    const nl = text.lastIndexOf('\n', end - 1)
    if (nl >= start) end = nl + 1
  }
  const firstLine = text.slice(0, start).split('\n').length
  return { file, size: len, start, end, firstLine, text: text.slice(start, end), files }
}

export interface FakeApi extends SkillbenchApi {
  calls: { method: ApiMethod; input: unknown }[]
  callsOf<M extends ApiMethod>(method: M): ApiInput<M>[]
  emit(event: ApiEvent): void
  handlers: Partial<ApiHandlers>
}

/** Builds the fake from handlers; a method without a handler fails like an unknown method. */
export function createFakeApi(handlers: Partial<ApiHandlers>): FakeApi {
  const listeners = new Set<(e: ApiEvent) => void>()
  const calls: { method: ApiMethod; input: unknown }[] = []
  return {
    transport: 'web',
    calls,
    handlers,
    callsOf<M extends ApiMethod>(method: M) {
      return calls.filter((c) => c.method === method).map((c) => c.input as ApiInput<M>)
    },
    async call<M extends ApiMethod>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>> {
      calls.push({ method, input })
      const handler = handlers[method] as ((i: ApiInput<M>) => Promise<ApiOutput<M>>) | undefined
      if (!handler) throw new ApiError('not_found', `fake API: ${method} not set up`)
      return handler(input)
    },
    onEvent(handler) {
      listeners.add(handler)
      return () => listeners.delete(handler)
    },
    emit(event) {
      for (const l of [...listeners]) l(event)
    }
  }
}

/**
 * Markdown + front matter through the store's parser/serializer (`store/skill-file.ts`), so every
 * converter reads skill files exactly as the library does (YAML only, no code, no aliases, size caps).
 */
import { coded, refOf } from '../../shared/error-codes'
import { assembleSkillText, parseSkillText, serializeSkillFile } from '../store/skill-file'
import { deepEqual, FormatError } from './model'
import { hasMultilineString, stringifyYamlSafe } from './safe-yaml'

/** A Markdown file split into its YAML front matter (as data) and its body. */
export interface FrontMatterDoc {
  data: Record<string, unknown>
  body: string
}

/** What a front matter belongs to, by code (its name in the UI language). */
const FRONT_MATTER_WHAT = { 'front matter': 'format.what_front_matter', 'SKILL.md': 'format.what_skill_md', 'AGIAgent skill': 'format.what_agiagent' } as const
export type FrontMatterWhat = keyof typeof FRONT_MATTER_WHAT

/** Parses `---\n<yaml>\n---\n\n<body>`; throws FormatError with the store's reason. */
export function parseFrontMatter(text: string, what: FrontMatterWhat | (string & {}) = 'front matter'): FrontMatterDoc {
  const parsed = parseSkillText(text)
  if (!parsed.ok) {
    throw new FormatError(coded('format.front_matter', { what: Object.hasOwn(FRONT_MATTER_WHAT, what) ? refOf(coded(FRONT_MATTER_WHAT[what as FrontMatterWhat])) : what, reason: { messageCode: parsed.messageCode, params: parsed.params } }))
  }
  return { data: parsed.file.data, body: parsed.file.body }
}

/** Joins front matter and body (upstream layout); `parseFrontMatter` gives back `data` and `body`. */
export function serializeFrontMatter(data: Record<string, unknown>, body: string): string {
  // A fresh copy: the YAML writer turns an object seen twice into an anchor/alias, which every reader refuses.
  const copy = plainCopy(data) as Record<string, unknown>
  const text = serializeSkillFile(copy, body)
  if (!hasMultilineString(data)) return text
  const back = parseSkillText(text)
  if (back.ok && deepEqual(back.file.data, data) && back.file.body === body) {
    return text
  }
  // The store's writer lost something (e.g. a whitespace-only block scalar): write fully quoted YAML instead.
  return assembleSkillText({ yaml: stringifyYamlSafe(copy), body })
}

/** Deep copy of plain data with no shared sub-objects (structuredClone keeps sharing). */
function plainCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainCopy)
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = plainCopy(v)
    return out
  }
  return value
}

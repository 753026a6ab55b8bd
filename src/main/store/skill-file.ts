/**
 * Parse and serialize skill files (Markdown + YAML front matter). Pure: no fs, no clock.
 *
 * This module is the only importer of the YAML library for skill files. It never runs code
 * (YAML only; `---js` style fences are refused), never throws on bad input (returns `invalid`),
 * rejects anchors/aliases, `__proto__`-like keys and oversized front matter, and keeps
 * string fields as strings (`skill_id: 0123` stays "0123", never 83 or 123).
 */
import { isAscii, isUtf8, transcode } from 'node:buffer'
import { isStringFieldPath, STRING_FIELDS } from './skill-file-fields'
import { parseSimpleYaml } from './simple-yaml'
import { patchSimpleYaml, YAML11_AMBIGUOUS } from './simple-yaml-patch'
import { patchScalarLines } from './yaml-line-patch'
import type * as YamlModule from 'yaml'
import type { Document, Node, Scalar, YAMLMap } from 'yaml'
import { coded, refOf, type CodedText, type MessageParam } from '../../shared/error-codes'
import { CodedError, reasonOf } from '../../shared/api-error'
import { codedReason, reasonParam, type CodedReason } from '../../shared/coded-reason'
import { MAX_FRONT_MATTER_BYTES, shapeProblem, YAML_MAX_DEPTH, YAML_PARSE_OPTIONS, yamlErrorCoded } from '../../shared/yaml-policy'
import { readFrontMatterYaml, secondFrontMatterAt } from '../../shared/front-matter-yaml'

let yamlModule: typeof YamlModule | undefined
/**
 * The `yaml` package, loaded on first use: it is ~70 files (60–100 ms of a command's start-up) and the fast
 * reader (simple-yaml.ts) parses nearly every front matter without it.
 */
function yamlLib(): typeof YamlModule {
  // A plain require (CJS everywhere this runs: tsx, the build, vitest), so bundlers still see the dependency.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (yamlModule ??= require('yaml') as typeof YamlModule)
}

/** Front matter larger than this is refused (alias bombs and pathological inputs stay cheap): shared/yaml-policy.ts. */
export { MAX_FRONT_MATTER_BYTES }
/** Deepest nesting accepted in front matter. */
export const MAX_FRONT_MATTER_DEPTH = YAML_MAX_DEPTH

export { STRING_FIELDS }

/** A skill file split into its parts; enough to write it back byte-for-byte equivalent. */
export interface SkillFileParts {
  /** Front matter as plain data (own enumerable keys only, no forbidden keys, no aliases). */
  data: Record<string, unknown>
  /** Markdown after the closing delimiter line (and after the one blank line when `gap`). */
  body: string
  /** The YAML text between the delimiters, as found (used to patch with formatting kept). */
  yaml: string
  bom: boolean
  eol: '\n' | '\r\n'
  /** A blank line separates the closing `---` from the body (upstream writes one). */
  gap: boolean
}

/** Why a file does not load: `reason` in English (printed, cached, in JSON) and the same by code beside it. */
export type Failed = { ok: false } & CodedReason
export type ParseResult = { ok: true; file: SkillFileParts } | Failed
export type DecodeResult = { ok: true; text: string } | Failed

/** A failure with this coded reason. */
export function failed(c: CodedText): Failed {
  return { ok: false, ...codedReason(c) }
}

/**
 * Why a file does not load or decode, as a param of a coded message ("{path}: {reason}"): its code and params.
 * Every reason made now carries its code; a reason with words only (cached on disk by an older version) is read
 * back through the table (shared/message-match).
 */
export function parseReasonParam(why: { reason: string; messageCode?: unknown; params?: unknown }): MessageParam {
  return reasonParam(why)
}

/** Decodes file bytes as strict UTF-8; invalid bytes are reported, never replaced. */
export function decodeSkillBytes(bytes: Uint8Array): DecodeResult {
  // buffer.isUtf8 is a strict native check (several times faster than a fatal TextDecoder on 10k files).
  if (!isUtf8(bytes)) return failed(coded('parse.not_utf8'))
  return { ok: true, text: validUtf8ToString(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) }
}

/**
 * Text of bytes already checked to be valid UTF-8. V8's UTF-8 decoder is ~3× slower than ICU's transcoder on
 * non-ASCII text (half the skills are Chinese), and opening a library decodes every file: non-ASCII files go
 * through `transcode` to UTF-16 (identical result on valid input), the rest (or a Node without ICU) through toString.
 */
function validUtf8ToString(buf: Buffer): string {
  if (buf.length >= 256 && !isAscii(buf)) {
    try {
      return transcode(buf, 'utf8', 'utf16le').toString('utf16le')
    } catch {
      // no ICU converters in this Node build
    }
  }
  return buf.toString('utf8')
}

interface Split {
  yaml: string
  body: string
  bom: boolean
  eol: '\n' | '\r\n'
  gap: boolean
}

/** Splits `---` front matter from the body; the delimiters must be whole lines. */
function splitFrontMatter(text: string): Split | Failed {
  let rest = text
  const bom = rest.charCodeAt(0) === 0xfeff
  if (bom) rest = rest.slice(1)
  const firstNl = rest.indexOf('\n')
  const firstLine = (firstNl < 0 ? rest : rest.slice(0, firstNl)).replace(/\r$/, '')
  if (!firstLine.startsWith('---')) {
    return failed(coded('parse.no_front_matter'))
  }
  if (firstLine.trimEnd() !== '---') {
    const lang = firstLine.slice(3).trim()
    return failed(coded('parse.language_refused', { lang: lang.slice(0, 20) }))
  }
  if (firstNl < 0) return failed(coded('parse.not_closed'))
  const eol: '\n' | '\r\n' = rest.charCodeAt(firstNl - 1) === 13 ? '\r\n' : '\n'
  // The first line that is exactly `---` (trailing spaces / CR allowed) closes the front matter.
  const close = /^---[ \t]*\r?$/gm
  close.lastIndex = firstNl + 1
  const m = close.exec(rest)
  if (!m) return failed(coded('parse.not_closed'))
  const yaml = rest.slice(firstNl + 1, m.index)
  let after = m.index + m[0].length
  if (rest[after] === '\n') after++
  const second = secondFrontMatterAt(rest, after)
  if (second !== null) return failed(coded('parse.second_front_matter', { line: lineAt(rest, second) }))
  let body = rest.slice(after)
  let gap = false
  if (body.startsWith('\r\n')) {
    body = body.slice(2)
    gap = true
  } else if (body.startsWith('\n')) {
    body = body.slice(1)
    gap = true
  }
  return { yaml, body, bom, eol, gap }
}

/** The 1-based line of `offset` in `text`. */
function lineAt(text: string, offset: number): number {
  let line = 1
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++
  return line
}

/**
 * Turns a YAML node into plain data, depth-capped. `parents` is the key path of the map holding the node
 * (null inside sequences); string fields by contract (top level, `metadata.skillbench`) keep their source text.
 */
function toData(node: unknown, depth: number, parents: string[] | null, key: string | null): unknown {
  if (depth > MAX_FRONT_MATTER_DEPTH) throw new CodedError('malformed', coded('parse.too_deep', { depth: MAX_FRONT_MATTER_DEPTH }))
  if (node == null) return null
  const { isScalar, isMap, isSeq, isAlias, isPair } = yamlLib()
  if (isScalar(node)) {
    const v = node.value
    if (parents !== null && key !== null && v !== null && typeof v !== 'string' && isStringFieldPath(parents, key)) {
      return typeof node.source === 'string' ? node.source : String(v)
    }
    if (typeof v === 'bigint') return Number(v)
    return v
  }
  if (isMap(node)) {
    const out: Record<string, unknown> = {}
    const path = parents !== null && key !== null ? [...parents, key] : null
    for (const pair of node.items) {
      const k = String((pair.key as Scalar).value)
      if (Object.prototype.hasOwnProperty.call(out, k)) throw new CodedError('malformed', coded('parse.duplicate_key', { key: k }))
      out[k] = toData(pair.value, depth + 1, path, k)
    }
    return out
  }
  if (isSeq(node)) return node.items.map((item) => toData(item, depth + 1, null, null))
  if (isAlias(node)) throw new CodedError('malformed', coded('parse.alias'))
  if (isPair(node)) throw new CodedError('malformed', coded('yaml.unexpected'))
  return null
}

/**
 * Parses the YAML text of a front matter; never throws. `firstLine`: the line of its file the YAML starts on, so a
 * syntax error says where it is in the file (1: the YAML's own lines).
 */
export function parseFrontMatterYaml(yaml: string, firstLine = 1): { ok: true; data: Record<string, unknown> } | Failed {
  if (Buffer.byteLength(yaml, 'utf8') > MAX_FRONT_MATTER_BYTES) {
    return failed(coded('parse.too_large', { kb: MAX_FRONT_MATTER_BYTES / 1024 }))
  }
  if (yaml.includes('\u0000')) return failed(coded('parse.nul_byte'))
  const fast = parseSimpleYaml(yaml)
  if (fast) return { ok: true, data: fast }
  return parseWithYamlLibrary(yaml, firstLine)
}

/** The full (slow) path of parseFrontMatterYaml: the `yaml` package plus our tree checks. Exported for tests. */
export function parseWithYamlLibrary(yaml: string, firstLine = 1): { ok: true; data: Record<string, unknown> } | Failed {
  try {
    const lib = yamlLib()
    const { isMap } = lib
    // the policy's refusal or the syntax error with its line in the file, worded as the app's editor words it
    const { doc, problem } = readFrontMatterYaml(lib, yaml, firstLine)
    if (problem) return failed(problem.coded)
    if (!doc) return failed(coded('parse.yaml', { problem: refOf(coded('yaml.other', { text: 'unreadable' })) }))
    if (doc.contents == null) return { ok: true, data: {} }
    if (!isMap(doc.contents)) return failed(coded('parse.not_mapping'))
    const out: Record<string, unknown> = {}
    for (const pair of doc.contents.items) {
      const k = String((pair.key as Scalar).value)
      if (Object.prototype.hasOwnProperty.call(out, k)) throw new CodedError('malformed', coded('parse.duplicate_key', { key: k }))
      out[k] = toData(pair.value, 1, [], k)
    }
    return { ok: true, data: out }
  } catch (err) {
    const problem = err instanceof CodedError ? reasonOf(err) : refOf(yamlErrorCoded((err as Error)?.message ?? String(err)))
    return failed(coded('parse.yaml', { problem }))
  }
}

/** Parses a whole skill file's text; never throws. */
export function parseSkillText(text: string): ParseResult {
  const split = splitFrontMatter(text)
  if ('reason' in split) return split
  // the YAML starts on the file's second line, after the opening `---`
  const fm = parseFrontMatterYaml(split.yaml, 2)
  if (!fm.ok) return fm
  return { ok: true, file: { data: fm.data, body: split.body, yaml: split.yaml, bom: split.bom, eol: split.eol, gap: split.gap } }
}

/** Parses file bytes (strict UTF-8 first); never throws. */
export function parseSkillBytes(bytes: Uint8Array): ParseResult {
  const decoded = decodeSkillBytes(bytes)
  if (!decoded.ok) return decoded
  return parseSkillText(decoded.text)
}

/**
 * Multi-line strings a block scalar (`|`) cannot carry: a line of only spaces/tabs (a `yaml` quirk turns `" \n"`
 * into `"\n"` and refuses `"  \n\t\n"`). Double quotes spell any string exactly.
 */
const BLOCK_UNSAFE = /(?:^|\n)[ \t]+(?:\n|$)/

/** Sets the quoting of scalars we create so they read back as strings under YAML 1.1 and 1.2 alike. */
function fixQuoting(node: unknown): void {
  const { isScalar, isMap, isSeq, isPair, Scalar } = yamlLib()
  if (isScalar(node)) {
    const v = node.value
    if (typeof v !== 'string') return
    if (!v.includes('\n')) {
      if (v === '' || YAML11_AMBIGUOUS.test(v)) node.type = Scalar.QUOTE_SINGLE
    } else if (BLOCK_UNSAFE.test(v)) {
      node.type = Scalar.QUOTE_DOUBLE
    }
    return
  }
  if (isMap(node) || isSeq(node)) {
    for (const item of node.items) {
      if (isPair(item)) fixQuoting(item.value)
      else fixQuoting(item)
    }
  }
}

// Double-quoted strings stay on one line: the `yaml` package's multi-line double-quoted form garbles a line of a
// single space ("\n \n" comes back with a backslash in it).
const STRINGIFY_OPTIONS = { lineWidth: 0, indentSeq: false, singleQuote: true, doubleQuotedMinMultiLineLength: Number.MAX_SAFE_INTEGER } as const

/** One front-matter change: a key path (top level or nested maps) and the new value (`undefined` deletes). */
export interface FrontMatterChange {
  path: string[]
  value: unknown
}

/**
 * Applies changes to a front matter's YAML text, keeping the order, quoting and comments of
 * everything not changed. New keys go at the end of their map.
 */
export function patchFrontMatterYaml(yaml: string, changes: FrontMatterChange[]): string {
  // Plain front matter (nearly all of it) is patched without the package, to the same text.
  return patchSimpleYaml(yaml, changes) ?? patchLinesChecked(yaml, changes) ?? patchWithYamlLibrary(yaml, changes)
}

/**
 * Other front matter (an indented list, comments): scalar changes replace just their lines, kept only when the
 * result reads back as the old data with the changes made (else undefined: the full path reprints).
 */
function patchLinesChecked(yaml: string, changes: FrontMatterChange[]): string | undefined {
  // A string field written unquoted as a number or date (`skill_id: 0123`) is left to the full path, which quotes it.
  for (const m of yaml.matchAll(/^([A-Za-z_][\w-]*):[ \t]+([^'"\s].*?)[ \t]*\r?$/gm)) {
    if (isStringFieldPath([], m[1]!) && YAML11_AMBIGUOUS.test(m[2]!) && !/^(?:~|null|Null|NULL)$/.test(m[2]!)) return undefined
  }
  const printPair = (key: string, value: unknown): string | undefined => patchWithYamlLibrary('', [{ path: [key], value }]).replace(/\n$/, '')
  const out = patchScalarLines(yaml, changes, printPair)
  if (out === undefined) return undefined
  const before = parseFrontMatterYaml(yaml)
  const after = parseFrontMatterYaml(out)
  if (!before.ok || !after.ok) return undefined
  const wanted: Record<string, unknown> = { ...before.data }
  for (const c of changes) wanted[c.path[0]!] = c.value
  return JSON.stringify(after.data) === JSON.stringify(wanted) ? out : undefined
}

/** The full path of patchFrontMatterYaml: the `yaml` package (parse, set, print). Exported for tests. */
export function patchWithYamlLibrary(yaml: string, changes: FrontMatterChange[]): string {
  const lib = yamlLib()
  const { Document, parseDocument, isMap } = lib
  // too big or too deep for the parser (shared/yaml-policy.ts): never given to it
  const hostile = yaml.trim() !== '' && shapeProblem(lib, yaml, 'skill front matter') !== null
  const doc = yaml.trim() === '' || hostile ? new Document({}) : parseDocument(yaml, YAML_PARSE_OPTIONS)
  if (hostile || doc.errors.length > 0 || !isMap(doc.contents)) {
    throw new Error('front matter cannot be patched: it is not a valid YAML mapping')
  }
  // String fields stored unquoted as numbers (`skill_id: 0123`) become quoted strings of their source text
  // (top-level fields and our `metadata.skillbench` bookkeeping only; other keys keep their types).
  quoteStringFields(doc, doc.contents, [])
  const metadata = doc.contents.get('metadata', true)
  const bookkeeping = isMap(metadata) ? metadata.get('skillbench', true) : undefined
  if (isMap(bookkeeping)) quoteStringFields(doc, bookkeeping, ['metadata', 'skillbench'])
  for (const change of changes) {
    if (change.value === undefined) {
      doc.deleteIn(change.path)
      continue
    }
    const node = doc.createNode(change.value) as Node
    fixQuoting(node)
    doc.setIn(change.path, node)
  }
  const text = doc.toString(STRINGIFY_OPTIONS)
  return text === '{}\n' ? '' : text
}

/** Rewrites non-string scalars of contract string fields in one map as quoted strings of their source text. */
function quoteStringFields(doc: Document, map: YAMLMap, parents: string[]): void {
  const { isScalar } = yamlLib()
  for (const pair of map.items) {
    if (isScalar(pair.key) && isStringFieldPath(parents, String(pair.key.value)) && isScalar(pair.value)) {
      const v = pair.value.value
      if (v !== null && typeof v !== 'string') {
        const s = typeof pair.value.source === 'string' ? pair.value.source : String(v)
        pair.value = doc.createNode(s) as Scalar
        fixQuoting(pair.value)
      }
    }
  }
}

/** Serializes plain data as front-matter YAML (keys in insertion order, 1.1-safe quoting). */
export function stringifyFrontMatter(data: Record<string, unknown>): string {
  const doc = new (yamlLib().Document)(data)
  fixQuoting(doc.contents)
  const text = doc.toString(STRINGIFY_OPTIONS)
  return text === '{}\n' ? '' : text
}

/** Assembles a skill file from its parts (inverse of parseSkillText). */
export function assembleSkillText(parts: { yaml: string; body: string; bom?: boolean; eol?: '\n' | '\r\n'; gap?: boolean }): string {
  const eol = parts.eol ?? '\n'
  let yaml = parts.yaml
  if (yaml !== '' && !yaml.endsWith('\n')) yaml += '\n'
  if (eol === '\r\n') yaml = yaml.replace(/\r?\n/g, '\r\n')
  const gap = parts.gap ?? true
  return `${parts.bom ? '\ufeff' : ''}---${eol}${yaml}---${eol}${gap ? eol : ''}${parts.body}`
}

/** Serializes data + body into a new skill file's text (upstream layout: `---\n{yaml}---\n\n{body}`). */
export function serializeSkillFile(data: Record<string, unknown>, body: string, opts: { bom?: boolean; eol?: '\n' | '\r\n'; gap?: boolean } = {}): string {
  return assembleSkillText({ yaml: stringifyFrontMatter(data), body, ...opts })
}

/** Rewrites a parsed file with front-matter changes and optionally a new body, keeping everything else. */
export function rewriteSkillFile(file: SkillFileParts, changes: FrontMatterChange[], body?: string): string {
  const yaml = patchFrontMatterYaml(file.yaml, changes)
  return assembleSkillText({ yaml, body: body ?? file.body, bom: file.bom, eol: file.eol, gap: file.gap })
}

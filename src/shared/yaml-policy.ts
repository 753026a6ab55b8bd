/**
 * The one policy for reading YAML that someone else wrote: skill front matter (store/skill-file.ts, when the fast
 * reader cannot), learned-skill YAML and MAS skill configs (formats/safe-yaml.ts), and the editor's error
 * positions (problem-position.ts). YAML is read as data only:
 *
 * - the core schema (no timestamps, no custom types), unique keys, no merge keys (`<<`);
 * - no anchors and no aliases (alias bombs; a value that is two values at once);
 * - no tag outside the core schema (`!!python/object`, `!custom`): YAML never turns into code or objects;
 * - keys are plain scalars, never `__proto__`, `constructor` or `prototype` (they poison objects built from them);
 * - at most YAML_MAX_DEPTH levels of nesting; a size cap per kind of document (MAX_FRONT_MATTER_BYTES,
 *   MAX_YAML_FILE_BYTES), checked here too, though callers that read files check it first.
 *
 * Hostile shapes never reach the parser's recursion: `yaml` composes nested collections by recursing once per level
 * and, past the stack, catches the RangeError and goes on (RESOURCE_EXHAUSTION, yaml ≥ 2.8.3), so its recovery runs
 * at the very edge of the stack, where V8 may kill the whole process ("RegExpCompiler Allocation failed - process out
 * of memory": 5,000 unclosed `[` parsed a few times in one process) and where the error lands depends on how much
 * stack the JIT left (column 786 one run, 821 the next). So `shapeProblem` first runs the package's own lexer and
 * CST parser (iterative, no recursion) and stops at the first collection nested deeper than YAML_MAX_READ_DEPTH, the
 * first entry past YAML_MAX_ITEMS in one collection or the first document past YAML_MAX_DOCUMENTS: fixed limits, a
 * fixed place, work bounded by the limit rather than by the input.
 *
 * The `yaml` package is passed in rather than imported: it is ~70 files (60–100 ms of a command's start-up), and
 * the store loads it only when its fast reader gives up. Pure.
 */
import { coded, type CodedText, type MessageCode, type MessageParams } from './error-codes'
import { positionOf } from './text-position'
import type * as YamlModule from 'yaml'

/** Options of every `parseDocument` that reads outside YAML. */
export const YAML_PARSE_OPTIONS = { schema: 'core', uniqueKeys: true, merge: false, prettyErrors: false, logLevel: 'silent' } as const

/** Keys refused at any depth. */
export const YAML_FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])

/** Deepest nesting accepted (maps and sequences). */
export const YAML_MAX_DEPTH = 32

/**
 * Deepest nesting the parser is given (flow `[`/`{` and block nesting alike), checked before it runs; deeper is
 * "nested too deeply to read" at the collection that goes past it. Above YAML_MAX_DEPTH, so a document between the two
 * is still refused by the policy's own words; far below what the parser's recursion (and a visit of its tree) can take.
 */
export const YAML_MAX_READ_DEPTH = 100

/**
 * Most entries in one mapping or list given to the parser, checked before it runs: the parser compares each new key
 * with every earlier one (unique keys: quadratic) and makes an error object per broken entry, so 6,000 unclosed
 * quotes in a 64 KB front matter took over a second. Skill front matter has tens of keys; a whole YAML file, lists of
 * tens or hundreds.
 */
export const YAML_MAX_ITEMS = 1000

/**
 * Most documents (`---`) given to the parser. Only the first is read (the parser, silent, does not complain of the
 * others), but it builds every one: 100,000 in a 1 MB file took seconds.
 */
export const YAML_MAX_DOCUMENTS = 100

/** Biggest front matter read: skill files carry a few KB; anything this big is hostile or a mistake. */
export const MAX_FRONT_MATTER_BYTES = 64 * 1024

/** Biggest whole YAML document read (learned skills, skill configs). */
export const MAX_YAML_FILE_BYTES = 1_000_000

const CORE_TAGS: ReadonlySet<string> = new Set(['str', 'int', 'float', 'bool', 'null', 'seq', 'map'].map((t) => `tag:yaml.org,2002:${t}`))

/** What the policy needs of the `yaml` package. */
export type YamlLib = Pick<typeof YamlModule, 'parseDocument' | 'visit' | 'isAlias' | 'isScalar' | 'isCollection' | 'Lexer' | 'Parser'>

/** A document's first problem: what is wrong (one line, for a person; and by code) and where in the text (null: unknown). */
export interface YamlProblem {
  /** `syntax`: the YAML itself does not parse; `policy`: it parses but the policy refuses it. */
  kind: 'syntax' | 'policy'
  message: string
  /** The same problem by code (`message` is its English text). */
  coded: CodedText
  offset: number | null
  /** The message names its own place (an unclosed quote or bracket says where it opened): no "(at line …)" after it. */
  placed?: true
}

/** What a document is, for the policy's messages: skill front matter (`parse.*` codes) or a whole YAML file (`yaml.*`). */
export type YamlWhere = 'skill front matter' | ''

function problemOf(kind: YamlProblem['kind'], c: CodedText, offset: number | null): YamlProblem {
  return { kind, message: c.text, coded: c, offset }
}

/** The parser's error codes said in our words (error-codes.ts), so they read in the UI language too. */
const YAML_CODE_WORDS: Partial<Record<string, MessageCode>> = {
  DUPLICATE_KEY: 'yaml.duplicate_key',
  BAD_INDENT: 'yaml.bad_indent',
  TAB_AS_INDENT: 'yaml.tab_indent',
  MISSING_CHAR: 'yaml.missing_char',
  BAD_DQ_ESCAPE: 'yaml.bad_escape',
  UNEXPECTED_TOKEN: 'yaml.unexpected',
  MULTILINE_IMPLICIT_KEY: 'yaml.multiline_key',
  BLOCK_AS_IMPLICIT_KEY: 'yaml.nested_in_compact',
  BLOCK_IN_FLOW: 'yaml.block_in_flow',
  BAD_SCALAR_START: 'yaml.bad_scalar_start',
  MULTIPLE_DOCS: 'yaml.several_documents',
  KEY_OVER_1024_CHARS: 'yaml.key_too_long',
  ALIAS_PROPS: 'yaml.misplaced_alias',
  BAD_ALIAS: 'yaml.misplaced_alias',
  BAD_PROP_ORDER: 'yaml.misplaced_alias',
  MULTIPLE_ANCHORS: 'yaml.misplaced_alias',
  MULTIPLE_TAGS: 'yaml.misplaced_alias'
}

/**
 * A YAML error by code: a parser stack overflow said as what it is (nesting too deep), the parser's error code in our
 * words when we have them, else `yaml.other` with the parser's first line.
 */
export function yamlErrorCoded(message: string, code?: string): CodedText {
  const first = message.split('\n')[0] ?? message
  if (/Maximum call stack size exceeded/.test(first)) {
    const at = /at line (\d+), column (\d+)/.exec(first)
    return at ? coded('yaml.nested_too_deep_at', { line: Number(at[1]), column: Number(at[2]) }) : coded('yaml.nested_too_deep')
  }
  // An unclosed [ or { is reported as bad indentation at the end of the text: what is missing is the bracket.
  if (code === 'BAD_INDENT' && /end with an? [\]}]/.test(first)) return coded('yaml.missing_char')
  const words = code ? YAML_CODE_WORDS[code] : undefined
  if (words) return coded(words)
  return coded('yaml.other', { text: first.replace(/:\s*$/, '').slice(0, 300) })
}

/**
 * Parses `text` under the policy. `where` names the document in messages ("… in skill front matter"; '' for none,
 * when the caller says what the document is itself); `firstLine` is the line of its file the text starts on (a
 * message that names a line counts the file's lines). Never throws: a
 * document the parser chokes on (too deep for its stack) comes back as a syntax problem.
 */
export function parseYamlDocument(yaml: YamlLib, text: string, where: YamlWhere, firstLine = 1): { doc: YamlModule.Document.Parsed | null; problem: YamlProblem | null } {
  const shape = shapeProblem(yaml, text, where, firstLine)
  if (shape) return { doc: null, problem: shape }
  let doc: YamlModule.Document.Parsed
  try {
    doc = yaml.parseDocument(text, YAML_PARSE_OPTIONS)
  } catch (err) {
    return { doc: null, problem: problemOf('syntax', yamlErrorCoded((err as Error)?.message ?? String(err)), 0) }
  }
  const error = doc.errors[0]
  if (error) {
    const first = yamlErrorCoded(error.message, error.code)
    // An unclosed quote or bracket is where the user must look, though the parser notices it (and often something
    // else first: a key that now spans lines) only where the text ends or a line is less indented. Not when the
    // document is too deep for the parser's stack: that is said as it is. (The first few errors only: the rest
    // follow from them, and each look is a walk of the document.)
    if (!first.messageCode.startsWith('yaml.nested_too_deep')) {
      for (const e of doc.errors.slice(0, 8)) {
        const unclosed = unclosedProblem(yaml, doc, e, text, firstLine)
        if (unclosed) return { doc, problem: unclosed }
      }
    }
    return { doc, problem: problemOf('syntax', first, Math.min(error.pos[0], text.length)) }
  }
  try {
    return { doc, problem: policyProblem(yaml, doc, where) }
  } catch (err) {
    // visit() recurses: a tree deeper than the stack is simply too deep
    return { doc, problem: problemOf('syntax', yamlErrorCoded((err as Error)?.message ?? String(err)), 0) }
  }
}

/** True when `text` is more than `max` bytes as UTF-8 (no Buffer: the renderer reads front matter too). */
function overBytes(text: string, max: number): boolean {
  if (text.length > max) return true // every UTF-16 unit is at least one UTF-8 byte
  if (text.length * 3 <= max) return false // and at most three
  return new TextEncoder().encode(text).length > max
}

const COLLECTIONS: ReadonlySet<string> = new Set(['block-map', 'block-seq', 'flow-collection'])

/**
 * What makes a text unsafe to give the parser at all, before it runs: more bytes than its kind's cap (a policy
 * refusal); collections nested deeper than YAML_MAX_READ_DEPTH, a collection of more than YAML_MAX_ITEMS entries or
 * more than YAML_MAX_DOCUMENTS documents (a syntax problem where the excess starts, the same line and column every
 * run). Its cost is bounded by the size cap and, for hostile shapes, by the limits: the lexer and CST parser run token
 * by token and stop there. Never throws.
 */
export function shapeProblem(yaml: Pick<YamlLib, 'Lexer' | 'Parser'>, text: string, where: YamlWhere, firstLine = 1): YamlProblem | null {
  const fm = where !== ''
  const max = fm ? MAX_FRONT_MATTER_BYTES : MAX_YAML_FILE_BYTES
  if (overBytes(text, max)) return problemOf('policy', fm ? coded('parse.too_large', { kb: max / 1024 }) : coded('yaml.too_large', { bytes: max }), null)
  try {
    const parser = new yaml.Parser()
    let documents = 0
    for (const lexeme of new yaml.Lexer().lex(text)) {
      for (const token of parser.next(lexeme)) {
        if (token.type === 'document' && ++documents > YAML_MAX_DOCUMENTS) {
          return problemOf('syntax', coded('yaml.several_documents'), clampOffset(token.offset, text))
        }
      }
      // the stack holds the document, its open collections and at most the scalar being read: count only when it
      // could be too deep
      const stack = parser.stack
      // entries are added to the innermost open collection: the only one that can have just gone past the limit
      const inner = innermostCollection(stack)
      if (inner && inner.items.length > YAML_MAX_ITEMS) {
        const offset = clampOffset(itemOffset(inner.items[YAML_MAX_ITEMS]!) ?? parser.offset, text)
        return { ...problemOf('syntax', coded('yaml.too_many_items', { max: YAML_MAX_ITEMS, ...positionOf(text, offset, firstLine) }), offset), placed: true }
      }
      if (stack.length <= YAML_MAX_READ_DEPTH) continue
      let depth = 0
      for (const token of stack) if (COLLECTIONS.has(token.type)) depth++
      if (depth <= YAML_MAX_READ_DEPTH) continue
      const offset = clampOffset(stack[stack.length - 1]!.offset, text)
      // in front matter the caller adds the place ("(at line …)"); a whole file's message says it itself
      if (fm) return problemOf('syntax', coded('yaml.nested_too_deep'), offset)
      return { ...problemOf('syntax', coded('yaml.nested_too_deep_at', { ...positionOf(text, offset, firstLine) }), offset), placed: true }
    }
  } catch {
    // the CST parser is iterative and does not throw; if it ever does, the parser proper says what is wrong
  }
  return null
}

type CstCollection = YamlModule.CST.BlockMap | YamlModule.CST.BlockSequence | YamlModule.CST.FlowCollection
type CstItem = CstCollection['items'][number]

function innermostCollection(stack: readonly YamlModule.CST.Token[]): CstCollection | null {
  for (let i = stack.length - 1; i >= 0; i--) {
    const token = stack[i]!
    if (COLLECTIONS.has(token.type)) return token as CstCollection
  }
  return null
}

/** Where an entry starts: its first indicator, key or value. */
function itemOffset(item: CstItem): number | undefined {
  return item.start[0]?.offset ?? item.key?.offset ?? item.sep?.[0]?.offset ?? item.value?.offset
}

function clampOffset(offset: number, text: string): number {
  return Math.min(Math.max(offset, 0), text.length)
}

type Ranged = { range?: [number, number, number] | null }

/** What opens a scalar or flow collection the parser found unclosed, by its error's words (`yaml` 2.x). */
function unclosedMark(error: YamlModule.YAMLError): { open: string; close: string } | null {
  const first = error.message.split('\n')[0] ?? ''
  if (error.code === 'MISSING_CHAR') {
    const quote = /^Missing closing (["'])quote/.exec(first)?.[1]
    if (quote) return { open: quote, close: quote }
  }
  if (error.code === 'MISSING_CHAR' || error.code === 'BAD_INDENT') {
    // "Flow sequence must end with a ]" (the whole document), "… in block collection must be sufficiently indented and end with a ]"
    const close = /^Flow (?:sequence|map)\b.*\bend with an? ([\]}])$/.exec(first)?.[1]
    if (close) return { open: close === ']' ? '[' : '{', close }
  }
  return null
}

/**
 * An unclosed quote or bracket said where it opened: the parser reports it where the quoted scalar or flow collection
 * ended (the end of the text, or a line indented too little to go on with it), which is where that node's range ends.
 * Null when the error is of another kind or its node is not found (its usual words then).
 */
function unclosedProblem(yaml: YamlLib, doc: YamlModule.Document.Parsed, error: YamlModule.YAMLError, text: string, firstLine: number): YamlProblem | null {
  const mark = unclosedMark(error)
  if (!mark) return null
  const stop = Math.min(error.pos[0], text.length)
  const quote = mark.open === mark.close
  const quoteType = mark.open === '"' ? 'QUOTE_DOUBLE' : 'QUOTE_SINGLE'
  let opened = -1
  try {
    yaml.visit(doc, {
      Node(_key, node) {
        const range = (node as Ranged).range
        if (!range || range[1] !== stop) return undefined
        if (quote ? !(yaml.isScalar(node) && node.type === quoteType) : !(yaml.isCollection(node) && node.flow)) return undefined
        // the node starts at its mark (after a tag, when it has one); the innermost of nested ones
        const at = text.indexOf(mark.open, range[0])
        if (at !== -1 && at < stop && at > opened) opened = at
        return undefined
      }
    })
  } catch {
    return null // deeper than the stack: said as that by the caller's own check
  }
  if (opened === -1) return null
  const { line, column } = positionOf(text, opened, firstLine)
  // Where the parser gave up on it: the first thing after, when the closing mark comes later (on a line indented too
  // little to belong to it); else it is never closed at all.
  const rest = text.slice(stop)
  const next = rest.search(/\S/)
  const end = next !== -1 && rest.includes(mark.close) ? positionOf(text, stop + next, firstLine).line : null
  const params: MessageParams = quote ? { line, column } : { bracket: mark.open, line, column }
  const c =
    end !== null && end > line
      ? coded(quote ? 'yaml.unclosed_quote_before' : 'yaml.unclosed_bracket_before', { ...params, end })
      : coded(quote ? 'yaml.unclosed_quote' : 'yaml.unclosed_bracket', params)
  return { ...problemOf('syntax', c, opened), placed: true }
}

function policyProblem(yaml: YamlLib, doc: YamlModule.Document.Parsed, where: YamlWhere): YamlProblem | null {
  // The same refusals, said of skill front matter (parse.*) or of a whole YAML file (yaml.*).
  const fm = where !== ''
  let problem: YamlProblem | null = null
  const refuse = (c: CodedText, node: unknown): typeof yaml.visit.BREAK => {
    problem = problemOf('policy', c, (node as Ranged | null)?.range?.[0] ?? null)
    return yaml.visit.BREAK
  }
  yaml.visit(doc, {
    Alias(_key, node) {
      return refuse(coded(fm ? 'parse.alias' : 'yaml.alias'), node)
    },
    Node(_key, node, path) {
      if ((node as { anchor?: string }).anchor) return refuse(coded(fm ? 'parse.anchor' : 'yaml.anchor'), node)
      const tag = (node as { tag?: string }).tag
      if (tag && !CORE_TAGS.has(tag)) return refuse(coded(fm ? 'parse.tag' : 'yaml.tag', { tag: tag.replace('tag:yaml.org,2002:', '!!').slice(0, 60) }), node)
      if (yaml.isCollection(node) && path.reduce((n, p) => (yaml.isCollection(p) ? n + 1 : n), 1) > YAML_MAX_DEPTH) {
        return refuse(coded(fm ? 'parse.too_deep' : 'yaml.too_deep', { depth: YAML_MAX_DEPTH }), node)
      }
      return undefined
    },
    Pair(_key, pair) {
      if (!yaml.isScalar(pair.key)) return refuse(coded(fm ? 'parse.key_not_scalar' : 'yaml.key_not_scalar'), pair.key)
      if (YAML_FORBIDDEN_KEYS.has(String(pair.key.value))) return refuse(coded(fm ? 'parse.forbidden_key' : 'yaml.forbidden_key', { key: String(pair.key.value) }), pair.key)
      return undefined
    }
  })
  return problem
}

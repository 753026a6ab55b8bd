/**
 * The language of the CLI's human words (`--lang zh|en`, else `SKILLBENCH_LANG`, else English): error lines on stderr
 * and the coded progress and log lines commands print there, worded from their code and params by the shared tables
 * (shared/error-codes-zh.ts). The locale (LANG) is not followed: scripts read stderr. `--json`, exit codes and stdout
 * never change; `--help` stays English. Pure but for the lazy load of the Chinese table (only when it is asked for).
 */
import { coded, type CodedText } from '../../shared/error-codes'
import type { MessageLang } from '../../shared/error-codes-zh'
import { readArgs, type OptionSpecs } from './arg-words'

/** A coded message (or one with no code: its English is read back through the table) in the CLI's language. */
export type CliWords = (ref: { messageCode?: unknown; params?: unknown } | null | undefined, english: string) => string

export interface LangWords {
  /** argv without the `--lang` option (the commands never see it). */
  argv: string[]
  lang: MessageLang
  /** Bad usage of `--lang` (no value, an unknown one): exit 2. */
  problem?: CodedText
  /** `SKILLBENCH_LANG` with a value that is no language of the CLI: said on stderr, English is used. */
  warning?: CodedText
}

const LANGS: readonly string[] = ['en', 'zh']

/** A command's option table (`CliCommand.options`): which options take a value. */
export type OptionTypes = OptionSpecs

const isLangWord = (w: string): boolean => w === '--lang' || w.startsWith('--lang=')

/**
 * Takes the CLI's `--lang X` / `--lang=X` out of argv and settles the language: `--lang`, else `SKILLBENCH_LANG`,
 * else English. Before the command's name only a `--lang` is looked for; after it, argv is read by the command's own
 * option table (`optionsOf`) the way its parser reads it (arg-words readArgs): a word that is an option's value or a
 * positional (after `--`) is never taken for `--lang`, and the word after `--lang` is its value as it would be for any
 * option that takes one. A `--lang…` word right after an option of the table that takes a value and has none
 * (`--text --lang`) is that option's value: passed on joined (`--text=--lang`), so it reaches the option unchanged. A
 * command with a `--lang` of its own (the language of what it writes: `ownsLang`) keeps the one after its name, which
 * then says both; a bad value there is the command's to report.
 */
export function langOption(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  ownsLang: (command: string) => boolean = () => false,
  optionsOf: (command: string) => OptionTypes | undefined = () => undefined
): LangWords {
  const out: string[] = []
  let asked: string | undefined
  let problem: CodedText | undefined
  /** The CLI's --lang with its value (undefined: none given): a bad or missing one is bad usage. */
  const take = (value: string | undefined): void => {
    if (value === undefined) problem ??= coded('cli.needs_value', { option: '--lang' })
    else if (!LANGS.includes(value)) problem ??= coded('cli.unknown_lang', { value })
    else asked = value
  }
  // before the command's name: only the CLI's --lang
  let i = 0
  for (; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--') break
    if (!isLangWord(arg)) break
    if (arg !== '--lang') take(arg.slice('--lang='.length))
    else {
      const next = argv[i + 1]
      take(next !== undefined && !next.startsWith('-') ? next : undefined)
      if (next !== undefined && !next.startsWith('-')) i++
    }
  }
  const name = argv[i]
  if (name !== undefined && name !== '--') {
    out.push(name)
    const mine = ownsLang(name)
    const table = optionsOf(name) ?? {}
    // `--text --lang`: the --lang word is the option's value (joined, so the reading below sees one word)
    const rest: string[] = []
    const after = argv.slice(i + 1)
    for (let k = 0; k < after.length; k++) {
      const w = after[k]!
      if (w === '--') {
        rest.push(...after.slice(k))
        break
      }
      const next = after[k + 1]
      if (next !== undefined && isLangWord(next) && w.startsWith('--') && !w.includes('=') && Object.hasOwn(table, w.slice(2)) && table[w.slice(2)]!.type === 'string') {
        rest.push(`${w}=${next}`)
        k++
        continue
      }
      rest.push(w)
    }
    const words = readArgs(rest, { ...table, lang: { type: 'string' } })
    for (let k = 0; k < words.length; k++) {
      const w = words[k]!
      if (w.role !== 'option' || !isLangWord(w.word)) {
        out.push(w.word)
        continue
      }
      const next = words[k + 1]
      const value = w.word.includes('=') ? w.word.slice('--lang='.length) : next?.role === 'value' ? next.word : undefined
      if (mine) {
        // the command's own option: left in place (it reads and checks it); a good value words its stderr too
        out.push(w.word)
        if (!w.word.includes('=') && value !== undefined) out.push(words[++k]!.word)
        if (value !== undefined && LANGS.includes(value)) asked = value
        continue
      }
      take(value)
      if (!w.word.includes('=') && value !== undefined) k++
    }
  } else {
    out.push(...argv.slice(i))
  }
  const fromEnv = env.SKILLBENCH_LANG
  const envLang = fromEnv && LANGS.includes(fromEnv) ? (fromEnv as MessageLang) : undefined
  const warning = fromEnv && !envLang ? coded('cli.unknown_lang_env', { value: fromEnv }) : undefined
  const lang: MessageLang = (asked as MessageLang | undefined) ?? envLang ?? 'en'
  return { argv: out, lang, ...(problem ? { problem } : {}), ...(warning ? { warning } : {}) }
}

/** The words function of a language: undefined for English (every line prints as it was made). */
export async function wordsFor(lang: MessageLang): Promise<CliWords | undefined> {
  if (lang === 'en') return undefined
  const { translateLine } = await import('../../shared/error-codes-zh')
  return (ref, english) => translateLine(ref, english, lang)
}

/** A coded line or text in the language of this run (`io.words`), its English when none was asked. */
export function say(io: { words?: CliWords }, message: { messageCode?: unknown; params?: unknown; text: string } | { messageCode?: unknown; params?: unknown; message: string }): string {
  const english = 'text' in message ? message.text : message.message
  return io.words ? io.words(message, english) : english
}

/** Words that came without their code (a tool's answer, a reason kept as text): read back through the table. */
export function sayText(io: { words?: CliWords }, english: string): string {
  return io.words ? io.words(null, english) : english
}

/** A reason beside a path or a name (`{reason, messageCode?, params?}`): by its code when it has one, else read back. */
export function sayReason(io: { words?: CliWords }, r: { reason: string; messageCode?: unknown; params?: unknown }): string {
  return io.words ? io.words(r, r.reason) : r.reason
}

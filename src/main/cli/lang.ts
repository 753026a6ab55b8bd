/**
 * The language of the CLI's human words (`--lang zh|en`, else `SKILLBENCH_LANG`, else English): error lines on stderr
 * and the coded progress and log lines commands print there, worded from their code and params by the shared tables
 * (shared/error-codes-zh.ts). The locale (LANG) is not followed: scripts read stderr. `--json`, exit codes and stdout
 * never change; `--help` stays English. Pure but for the lazy load of the Chinese table (only when it is asked for).
 */
import { coded, type CodedText } from '../../shared/error-codes'
import type { MessageLang } from '../../shared/error-codes-zh'

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
export type OptionTypes = Readonly<Record<string, { type: 'string' | 'boolean' }>>

/** `--name` (no `=`) is an option of the table that takes a value. */
function takesValue(options: OptionTypes | undefined, arg: string): boolean {
  if (!options || !arg.startsWith('--') || arg.includes('=')) return false
  const name = arg.slice(2)
  return Object.hasOwn(options, name) && options[name]!.type === 'string'
}

/**
 * Takes `--lang X` / `--lang=X` out of argv, wherever it is (before or after the command's name; not after `--`), and
 * settles the language: `--lang`, else `SKILLBENCH_LANG`, else English. A command with a `--lang` of its own (the
 * language of what it writes: `ownsLang`) keeps the one after its name, which then says both; a bad value there is
 * the command's to report. A `--lang…` word right after an option of the command that takes a value (its own table,
 * `optionsOf`: `--text --lang`) is that option's value: passed on joined (`--text=--lang`), so it reaches the option
 * unchanged.
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
  let name: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--') {
      out.push(...argv.slice(i))
      break
    }
    const mine = name !== undefined && ownsLang(name)
    const next = argv[i + 1]
    if (name !== undefined && next !== undefined && (next === '--lang' || next.startsWith('--lang=')) && takesValue(optionsOf(name), arg)) {
      // the word is this option's value, not the CLI's --lang (joined: the command's parser would take it for an option)
      out.push(`${arg}=${next}`)
      i++
      continue
    }
    if (arg === '--lang' || arg.startsWith('--lang=')) {
      const joined = arg !== '--lang'
      const value = joined ? arg.slice('--lang='.length) : next !== undefined && !next.startsWith('-') ? next : undefined
      if (mine) {
        // the command's own option: left in place (it reads and checks it); a good value words its stderr too
        out.push(arg)
        if (!joined && value !== undefined) out.push(argv[++i]!)
        if (value !== undefined && LANGS.includes(value)) asked = value
        continue
      }
      if (value === undefined) problem ??= coded('cli.needs_value', { option: '--lang' })
      else {
        if (!LANGS.includes(value)) problem ??= coded('cli.unknown_lang', { value })
        else asked = value
        if (!joined) i++
      }
      continue
    }
    if (name === undefined) name = arg
    out.push(arg)
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

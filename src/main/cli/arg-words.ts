/**
 * What a person typed on the command line, read kindly (pure): a value that starts with a dash, the name they
 * probably meant, and node:util parseArgs's problems in one line that says what to type instead.
 */

import { closestName } from '../../shared/closest-name'
import { coded, type CodedText } from '../../shared/error-codes'

export type OptionSpecs = Readonly<Record<string, { type: 'string' | 'boolean' }>>

/** One word of a command's argv, read as its parser reads it (readArgs). */
export interface ArgWord {
  word: string
  /**
   * `option`: `--name`, `--name=value` or a short `-x`; `value`: the word after an option of the table that takes one;
   * `positional`: anything else, and every word after the `--` that ends the options (`end`).
   */
  role: 'option' | 'value' | 'positional' | 'end'
  /** The option's name (no dashes, nothing from `=` on); for a value, the option it belongs to. */
  option?: string
}

/** `--name` of the table takes a value. */
function takesValue(options: OptionSpecs, name: string): boolean {
  return Object.hasOwn(options, name) && options[name]!.type === 'string'
}

/**
 * The one reading of a command's argv by its option table, the way parseCommandArgs parses it: the word after an
 * option that takes a value is that value, even when it starts with a dash (`--text "- a bullet"`, `--top -1`), unless
 * it is `--` or looks like a long option (`--library`: the value was forgotten, and parseArgs says so); the first
 * `--` that is no value ends the options. main reads `--help`, `--json` and the CLI's `--lang` from it, and the
 * bundled-sample guard its path options, so a word a command takes as a value or a positional is never read as one of
 * those (`query -- --help` looks up "--help"). Pure.
 */
export function readArgs(argv: readonly string[], options: OptionSpecs): ArgWord[] {
  const out: ArgWord[] = []
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!
    if (word === '--') {
      out.push({ word, role: 'end' }, ...argv.slice(i + 1).map((w): ArgWord => ({ word: w, role: 'positional' })))
      break
    }
    if (word.startsWith('--')) {
      const eq = word.indexOf('=')
      const option = word.slice(2, eq === -1 ? undefined : eq)
      out.push({ word, role: 'option', option })
      const next = argv[i + 1]
      if (eq === -1 && takesValue(options, option) && next !== undefined && next !== '--' && !/^--[A-Za-z]/.test(next)) {
        out.push({ word: next, role: 'value', option })
        i++
      }
      continue
    }
    if (word.length > 1 && word.startsWith('-')) out.push({ word, role: 'option', option: word.slice(1) })
    else out.push({ word, role: 'positional' })
  }
  return out
}

/** The values argv gives the option `name` (`--name VALUE`, `--name=VALUE`), read by the table (readArgs). */
export function optionValues(argv: readonly string[], options: OptionSpecs, name: string): string[] {
  const words = readArgs(argv, options)
  const out: string[] = []
  words.forEach((w, i) => {
    if (w.role !== 'option' || (w.word !== `--${name}` && !w.word.startsWith(`--${name}=`))) return
    if (w.word.includes('=')) out.push(w.word.slice(w.word.indexOf('=') + 1))
    else if (words[i + 1]?.role === 'value') out.push(words[i + 1]!.word)
  })
  return out
}

/**
 * `--text "- a bullet"` and `--top -1`: a value that starts with a dash but is not an option of this command is taken
 * as the option's value (`--text=- a bullet`), where parseArgs alone refuses it as ambiguous. A following `--name` word
 * stays an option (a value that was forgotten is still reported). The values are readArgs's.
 */
export function joinDashValues(argv: readonly string[], options: OptionSpecs): string[] {
  const words = readArgs(argv, options)
  const out: string[] = []
  for (let i = 0; i < words.length; i++) {
    const next = words[i + 1]
    if (next?.role === 'value' && next.word.startsWith('-')) {
      out.push(`${words[i]!.word}=${next.word}`)
      i++
      continue
    }
    out.push(words[i]!.word)
  }
  return out
}

/** parseArgs's error as one coded line for `skillbench <command>: …`, naming the option meant for a typo. */
export function argProblem(err: unknown, options: OptionSpecs): CodedText {
  const e = err as { code?: string; message?: string }
  const message = e.message ?? String(err)
  const flag = /Option '(--?[^' ]+)/.exec(message)?.[1] ?? /Unknown option '([^']+)'/.exec(message)?.[1]
  const names = Object.keys(options)
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag) {
    const meant = flag.startsWith('--') ? closestName(flag.slice(2).split('=')[0]!, names) : undefined
    const known = names.map((n) => `--${n}`).join(', ')
    if (meant) return coded('cli.unknown_option_meant', { option: flag, meant: `--${meant}` })
    return names.length > 0 ? coded('cli.unknown_option', { option: flag, options: known }) : coded('cli.unknown_option_none', { option: flag })
  }
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && flag) {
    if (/ambiguous|argument missing/.test(message)) return coded('cli.needs_value', { option: flag })
    if (/does not take an argument/.test(message)) return coded('cli.takes_no_value', { option: flag })
  }
  // a word the command takes no positional for, in Node's own words (kept byte for byte: scripts read stderr)
  const positional = /^Unexpected argument '([\s\S]*)'\. This command does not take positional arguments$/.exec(message)
  if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' && positional) return coded('cli.unexpected_positional', { argument: positional[1]! })
  return coded('cli.usage', { problem: message.split('\n')[0] || 'bad arguments' })
}

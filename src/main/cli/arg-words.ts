/**
 * What a person typed on the command line, read kindly (pure): a value that starts with a dash, the name they
 * probably meant, and node:util parseArgs's problems in one line that says what to type instead.
 */

import { closestName } from '../../shared/closest-name'
import { coded, type CodedText } from '../../shared/error-codes'

type OptionSpecs = Readonly<Record<string, { type: 'string' | 'boolean' }>>

/**
 * `--text "- a bullet"` and `--top -1`: a value that starts with a dash but is not an option of this command is taken
 * as the option's value (`--text=- a bullet`), where parseArgs alone refuses it as ambiguous. A following `--name` word
 * stays an option (a value that was forgotten is still reported).
 */
export function joinDashValues(argv: readonly string[], options: OptionSpecs): string[] {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--') {
      out.push(...argv.slice(i))
      break
    }
    const next = argv[i + 1]
    const name = arg.startsWith('--') && !arg.includes('=') ? arg.slice(2) : undefined
    if (name && Object.hasOwn(options, name) && options[name]!.type === 'string' && next !== undefined && next.startsWith('-') && !/^--[A-Za-z]/.test(next) && next !== '--') {
      out.push(`${arg}=${next}`)
      i++
      continue
    }
    out.push(arg)
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
    return meant ? coded('cli.unknown_option_meant', { option: flag, meant: `--${meant}` }) : coded('cli.unknown_option', { option: flag, options: known })
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

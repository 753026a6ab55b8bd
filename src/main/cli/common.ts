import path from 'node:path'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import type { RecoveredEntry } from '../review/recovery-notices'
import { argProblem, joinDashValues } from './arg-words'
import { coded, type CodedText, type MessageCode, type MessageParams } from '../../shared/error-codes'
import { messageRefOf } from '../../shared/message-match'
import type { CliWords, OptionTypes } from './lang'

/**
 * Bad usage: exit code 2 with a one-line message, and a message code like every other error (kind `usage`), which
 * `--json` prints on stdout. Words without a code of their own get the table's code when the table produced them
 * (`invalid skill id …`), else `cli.usage` with the words as its `problem`.
 */
export class UsageError extends Error {
  readonly code = 'usage'
  readonly messageCode: MessageCode
  readonly params: MessageParams

  constructor(message: string | CodedText) {
    const text = typeof message === 'string' ? message : message.text
    super(text)
    this.name = 'UsageError'
    const ref = typeof message === 'string' ? (messageRefOf(message) ?? coded('cli.usage', { problem: message })) : message
    this.messageCode = ref.messageCode
    this.params = ref.params
  }
}

/** Where CLI commands write: machine output on stdout, progress and logs on stderr. */
export interface CliIo {
  /** Text, or bytes already encoded (UTF-8). */
  stdout: (text: string | Uint8Array) => void
  stderr: (text: string) => void
  /** True when stderr is a terminal (progress bars are drawn only then). */
  isTTY: boolean
  cwd: string
  env: NodeJS.ProcessEnv
  /** Aborted on Ctrl-C. */
  signal: AbortSignal
  /** How to run this CLI as another process (node, its flags, the script); only when it runs as its own process. */
  selfCommand?: readonly string[]
  /** With --json: what recovery did during the command so far (main fills it), added to the JSON as `recovered`. */
  recovered?: RecoveredEntry[]
  /**
   * The words of coded lines in the language asked (`--lang zh`, SKILLBENCH_LANG; main fills it): print a coded line
   * through `say(io, line)` (cli/lang.ts). Absent for English. Never for --json or stdout a script parses.
   */
  words?: CliWords
}

/** One `skillbench` sub-command; each lives in its own file under `commands/`. */
export interface CliCommand {
  name: string
  /** Its one-line summary is in registry.ts (so `--help` loads no command). */
  usage: string
  /**
   * Its option table, the one it parses argv with: main reads it to tell a `--lang` word that is an option's value
   * (`--text --lang`) from the CLI's `--lang` (cli/lang.ts).
   */
  options: OptionTypes
  /** Returns the exit code (0 success, 1 failure). Throws UsageError for bad usage. */
  run(argv: string[], io: CliIo): Promise<number>
}

/** A command's argv as its `writes` reads it (registry.ts): positionals and option values, parsed leniently (a typo is the command's to say). */
export interface CommandArgs {
  positionals: readonly string[]
  values: Readonly<Record<string, unknown>>
}

/** Whether a command may write where its arguments point: always, never, or by its arguments (registry.ts). */
export type CommandWrites = boolean | ((args: CommandArgs) => boolean)

/** Options every library-addressed command accepts. */
export const LIBRARY_OPTIONS = {
  library: { type: 'string' },
  'root-dir': { type: 'string' },
  user: { type: 'string' },
  json: { type: 'boolean', default: false }
} as const satisfies NonNullable<ParseArgsConfig['options']>

/**
 * Parses argv strictly; unknown flags become a UsageError that names the option meant. A value that starts with a
 * dash (`--text "- a bullet"`) is taken as the value when it is no option of the command.
 */
export function parseCommandArgs<O extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: O,
  allowPositionals = true
): ReturnType<typeof parseArgs<{ options: O; allowPositionals: boolean; strict: true; args: string[] }>> {
  try {
    return parseArgs({ args: joinDashValues(argv, options), options, allowPositionals, strict: true })
  } catch (err) {
    throw new UsageError(argProblem(err, options))
  }
}

/**
 * The library folder a command works on: `--library DIR`, or `--root-dir DIR --user NAME`
 * (meaning `DIR/NAME/general/experience`). Both --library and --root-dir is bad usage: which library was meant is
 * unclear (--root-dir was ignored before, without a word). --user alone beside --library is not: accept, reject, undo
 * and curate --apply record it as the one who decided.
 */
export function resolveLibraryDir(
  values: { library?: string; 'root-dir'?: string; user?: string },
  cwd: string
): string {
  if (values.library !== undefined && values['root-dir'] !== undefined) {
    throw new UsageError(coded('cli.library_and_root_dir', { library: values.library, root: values['root-dir'] }))
  }
  if (values.library) {
    return path.resolve(cwd, values.library)
  }
  if (values['root-dir'] && values.user) {
    return path.resolve(cwd, values['root-dir'], values.user, 'general', 'experience')
  }
  if (values['root-dir']) {
    throw new UsageError(coded('cli.root_dir_needs_user'))
  }
  throw new UsageError(coded('cli.which_library'))
}

/** Prints a value as JSON (one document, trailing newline), with `recovered` when recovery did something. */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout(JSON.stringify(withRecovered(io, value), null, 2) + '\n')
}

/**
 * An object answer with `recovered` added ({code, params, message} of each line: what recovery rolled back or could
 * not, during this command) when there is any; every other field as it was. A field of that name already there wins.
 */
export function withRecovered<T>(io: Pick<CliIo, 'recovered'>, value: T): T {
  if (!io.recovered?.length || typeof value !== 'object' || value === null || Array.isArray(value) || 'recovered' in value) return value
  return { ...value, recovered: [...io.recovered] }
}

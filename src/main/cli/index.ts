import { UsageError, withRecovered, type CliCommand, type CliIo } from './common'
import { readArgs } from './arg-words'
import { interruptHandler } from './interrupt'
import { commandWrites, refuseBundledSample } from './bundled-sample'
import { closestName } from '../../shared/closest-name'
import { codedFsError } from './fs-errors'
import { COMMANDS } from './registry'
import { StoreError } from '../store/types'
import { codedFieldsFor } from '../tools/coded-result'
import { recoveryCollector } from '../review/recovery-notices'
import { coded } from '../../shared/error-codes'
import { codedFieldsOf } from '../../shared/api-error'
import { langOption, say, wordsFor, type CliWords, type LangWords } from './lang'

/** The line every command's `--help` ends with: the CLI's own --lang (English, like all help). */
export const LANG_HELP_LINE = 'Add --lang zh (or set SKILLBENCH_LANG=zh) for errors and progress on stderr in Chinese; --lang en is the default.'

/** The top-level help: every command with its summary, from the registry (no command module is loaded). */
function helpText(): string {
  const names = Object.keys(COMMANDS).sort()
  const width = Math.max(...names.map((n) => n.length), 4)
  const lines = names.map((name) => `  ${name.padEnd(width)}  ${COMMANDS[name]!.summary}`)
  return [
    'skillbench — a workbench for the skills AI agents learn from their own work',
    '',
    'Usage: skillbench <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Library address: --library DIR (an experience folder or a SKILL.md tree), or --root-dir DIR --user NAME.',
    'Add --json for machine output on stdout; progress goes to stderr.',
    LANG_HELP_LINE,
    '  --json, exit codes and stdout stay the same; --help stays English.',
    'Run `skillbench <command> --help` for a command\'s options.'
  ].join('\n')
}

/** A command's `--help`: its usage, its summary, and the options every command has. */
function commandHelp(usage: string, summary: string): string {
  return `Usage: ${usage}\n\n${summary}\n\n${LANG_HELP_LINE}\n`
}

/** `{status: 'error', message, code?, message_code?, params?}` of a command that failed. */
function failureJson(err: unknown, message: string): Record<string, unknown> {
  const code = (err as { code?: unknown } | null)?.code
  return { status: 'error', message, ...(typeof code === 'string' && /^[a-z_]{2,40}$/.test(code) ? { code } : {}), ...codedFieldsFor(err, message) }
}

/** A command with a `--lang` of its own (the language of what it writes). */
const ownsLang = (command: string): boolean => Object.hasOwn(COMMANDS, command) && COMMANDS[command]!.ownsLang === true

/**
 * The run's language and argv without the CLI's `--lang`, read with the command's own option table (its module is
 * loaded first: a `--lang` word that is the value of one of its options, or comes after `--`, is left to it). main and
 * Ctrl-C's "Cancelling…" (runFromProcess) both settle it here, so they never disagree.
 */
export async function settleLang(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<{ asked: LangWords; command?: CliCommand }> {
  const named = langOption(argv, env, ownsLang).argv[0]
  const found = named !== undefined && Object.hasOwn(COMMANDS, named) ? await COMMANDS[named]!.load() : undefined
  if (!found) return { asked: langOption(argv, env, ownsLang) }
  return { asked: langOption(argv, env, ownsLang, (n) => (n === named ? found.command.options : undefined)), command: found.command }
}

/** Runs the CLI; returns the exit code (0 ok, 1 failure, 2 bad usage). */
export async function main(argv: string[], io: CliIo): Promise<number> {
  // --lang (before the command's name, or where the command reads options) or SKILLBENCH_LANG: the language of what is
  // said on stderr, taken out of argv
  const { asked, command: found } = await settleLang(argv, io.env)
  const words = await wordsFor(asked.lang)
  if (words) io = { ...io, words }
  if (asked.warning) io.stderr(`skillbench: ${say(io, asked.warning)}\n`)
  const [name, ...rest] = asked.argv
  // the words of rest as the command reads them (its table; none for an unknown command): --json and --help are
  // options there, never an option's value or a word after `--` (`query -- --help` looks up "--help")
  const read = readArgs(rest, found?.options ?? {})
  // --json asked for: a failure, bad usage too, is also said as JSON on stdout. `--json=…` counts (it is bad usage
  // itself: the flag takes no value).
  const json = read.some((w) => w.role === 'option' && (w.word === '--json' || w.word.startsWith('--json=')))
  if (asked.problem) {
    const problem = asked.problem
    io.stderr(`skillbench${name && Object.hasOwn(COMMANDS, name) ? ` ${name}` : ''}: ${say(io, problem)}\n`)
    if (json) io.stdout(JSON.stringify(failureJson(new UsageError(problem), problem.text)) + '\n')
    return 2
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(helpText() + '\n')
    return name ? 0 : 2
  }
  if (name === '--version' || name === '-v') {
    io.stdout('0.1.0\n')
    return 0
  }
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined
  if (!entry) {
    const meant = closestName(name, Object.keys(COMMANDS))
    const problem = meant ? coded('cli.unknown_command_meant', { command: name, meant }) : coded('cli.unknown_command', { command: name })
    io.stderr(`skillbench: ${say(io, problem)}\n`)
    if (json) io.stdout(JSON.stringify(failureJson(new UsageError(problem), problem.text)) + '\n')
    return 2
  }
  const command = found ?? (await entry.load()).command
  if (read.some((w) => w.role === 'option' && (w.word === '--help' || w.word === '-h'))) {
    io.stdout(commandHelp(command.usage, entry.summary))
    return 0
  }
  // What recovery did during the command (a change a crash interrupted, rolled back or not): said on stderr as it
  // happens, in the words the app's banner uses, and with --json kept for the answer's `recovered`.
  const heard = recoveryCollector((line) => io.stderr(`skillbench ${name}: ${say(io, line)}\n`))
  const runIo: CliIo = json ? { ...io, recovered: heard.entries } : io
  try {
    // the sample data bundled with Skillbench is never written: a command that may write there is refused first
    refuseBundledSample(commandWrites(entry, command.options, rest), rest, command.options, io.cwd, io.env)
    return await heard.run(() => command.run(rest, runIo))
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`skillbench ${name}: ${say(io, { messageCode: err.messageCode, params: err.params, text: err.message })}\n`)
      // --json: the same shape as any other failure ({status: 'error', message, code: 'usage', message_code, params})
      if (json) io.stdout(JSON.stringify(withRecovered(runIo, failureJson(err, err.message))) + '\n')
      return 2
    }
    const failure = codedFsError(err) ?? err
    const message = failure instanceof StoreError || failure instanceof Error ? failure.message : String(failure)
    io.stderr(`skillbench ${name}: ${(io.words ? io.words(codedFieldsOf(failure), message) : message).split('\n')[0]}\n`)
    // --json: the failure as JSON on stdout too, in the shape of a tool's error answer (a script reads the code)
    if (json) io.stdout(JSON.stringify(withRecovered(runIo, failureJson(failure, message))) + '\n')
    return 1
  }
}

/** Entry point used by bin/skillbench.cjs. */
export function runFromProcess(): void {
  const controller = new AbortController()
  let running = true
  // Ctrl-C's "Cancelling…" in the run's language: the same reading main makes (settleLang, by the command's option
  // table), the Chinese table loaded only under zh
  let words: CliWords | undefined
  void settleLang(process.argv.slice(2), process.env)
    .then(({ asked }) => wordsFor(asked.lang))
    .then((w) => (words = w), () => undefined)
  process.on(
    'SIGINT',
    interruptHandler({
      running: () => running,
      abort: () => controller.abort(),
      write: (t) => void process.stderr.write(t),
      words: () => words,
      exit: (code) => process.exit(code)
    })
  )
  // A reader that went away (`skillbench list --json | head`) is not an error of the command: the rest of the
  // output is dropped and the command still finishes what it writes to the library (no crash mid-way).
  let stdoutGone = false
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err
    stdoutGone = true
  })
  const io: CliIo = {
    stdout: (t) => void (stdoutGone || process.stdout.write(t)),
    stderr: (t) => void process.stderr.write(t),
    isTTY: Boolean(process.stderr.isTTY),
    cwd: process.cwd(),
    env: process.env,
    signal: controller.signal,
    selfCommand: [process.execPath, ...process.execArgv, process.argv[1]!]
  }
  main(process.argv.slice(2), io).then(
    (code) => {
      running = false
      process.exitCode = code
    },
    (err: unknown) => {
      running = false
      process.stderr.write(`skillbench: ${(err as Error).message}\n`)
      process.exitCode = 1
    }
  )
}

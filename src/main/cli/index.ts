import { UsageError, type CliCommand, type CliIo } from './common'
import { COMMAND_LOADERS } from './registry'
import { StoreError } from '../store/types'

/** Loads every registered command (help needs their summaries). */
async function loadCommands(): Promise<Map<string, CliCommand>> {
  const commands = new Map<string, CliCommand>()
  for (const name of Object.keys(COMMAND_LOADERS).sort()) {
    commands.set(name, (await COMMAND_LOADERS[name]!()).command)
  }
  return commands
}

function helpText(commands: Map<string, CliCommand>): string {
  const width = Math.max(...[...commands.keys()].map((n) => n.length), 4)
  const lines = [...commands.values()].map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`)
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
    'Run `skillbench <command> --help` for a command\'s options.'
  ].join('\n')
}

/** Runs the CLI; returns the exit code (0 ok, 1 failure, 2 bad usage). */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(helpText(await loadCommands()) + '\n')
    return name ? 0 : 2
  }
  if (name === '--version' || name === '-v') {
    io.stdout('0.1.0\n')
    return 0
  }
  const loader = COMMAND_LOADERS[name]
  if (!loader) {
    io.stderr(`skillbench: unknown command '${name}' (see skillbench --help)\n`)
    return 2
  }
  const { command } = await loader()
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(`Usage: ${command.usage}\n\n${command.summary}\n`)
    return 0
  }
  try {
    return await command.run(rest, io)
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`skillbench ${name}: ${err.message}\n`)
      return 2
    }
    const message = err instanceof StoreError || err instanceof Error ? err.message : String(err)
    io.stderr(`skillbench ${name}: ${message.split('\n')[0]}\n`)
    return 1
  }
}

/** Entry point used by bin/skillbench.cjs. */
export function runFromProcess(): void {
  const controller = new AbortController()
  let interrupted = false
  process.on('SIGINT', () => {
    if (interrupted) {
      process.exit(130)
    }
    interrupted = true
    process.stderr.write('\nCancelling… (press Ctrl-C again to quit now)\n')
    controller.abort()
  })
  const io: CliIo = {
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
    isTTY: Boolean(process.stderr.isTTY),
    cwd: process.cwd(),
    env: process.env,
    signal: controller.signal
  }
  main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code
    },
    (err: unknown) => {
      process.stderr.write(`skillbench: ${(err as Error).message}\n`)
      process.exitCode = 1
    }
  )
}

import path from 'node:path'
import { readEnhanceSettings } from '../../config/enhance-settings'
import { DEFAULT_SETTINGS } from '../../../shared/types'
import { claudeStopHook, codexNotify, HOOK_AGENTS, type HookAgent } from '../agent-hooks'
import { parseCommandArgs, UsageError, type CliCommand, type CliIo } from '../common'
import { coded, type CodedText } from '../../../shared/error-codes'
import { say } from '../lang'

const OPTIONS = {
  print: { type: 'string' },
  library: { type: 'string' },
  'root-dir': { type: 'string' },
  user: { type: 'string' },
  'codex-dir': { type: 'string' },
  llm: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' }
} as const

const USAGE =
  'skillbench hooks --print claude|codex (--library DIR | --root-dir DIR [--user U]) [--llm offline|openai --base-url URL --model M] [--codex-dir DIR]\n' +
  '  Prints the hook an agent runs after each turn: `skillbench reflect --hook <agent> … --decide` on the session\n' +
  '  that just ended (create a skill, propose an enhancement for review, or nothing). Claude Code: a Stop hook for\n' +
  '  ~/.claude/settings.json; Codex: the notify line for ~/.codex/config.toml. It reflects only while the\n' +
  "  auto-enhance switch is on (Skillbench → Settings); the model is the settings' unless --llm says otherwise."

/** How this CLI is started from an agent's hook: absolute paths, so it runs from any folder. */
function selfArgv(io: CliIo): string[] {
  if (io.selfCommand?.length) return [...io.selfCommand]
  return [process.execPath, path.resolve(process.argv[1] ?? 'skillbench')]
}

export const command: CliCommand = {
  name: 'hooks',
  options: OPTIONS,
  usage: USAGE,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, OPTIONS, false)
    const agent = values.print as HookAgent | undefined
    if (agent === undefined) throw new UsageError(coded('cli.print_required'))
    if (!HOOK_AGENTS.includes(agent)) throw new UsageError(coded('cli.takes_either', { option: '--print', a: HOOK_AGENTS[0], b: HOOK_AGENTS[1] }))
    if (!values.library === !values['root-dir']) throw new UsageError(coded('cli.hooks_need_library'))
    const settings = readEnhanceSettings(io.env)
    const provider = values.llm ?? settings.llm.provider
    if (provider !== 'offline' && provider !== 'openai') throw new UsageError(coded('cli.must_be_either', { option: '--llm', a: 'offline', b: 'openai' }))

    const args = [...selfArgv(io), 'reflect', '--hook', agent]
    if (values.library) args.push('--library', path.resolve(io.cwd, values.library))
    else args.push('--root-dir', path.resolve(io.cwd, values['root-dir']!), ...(values.user ? ['--user', values.user] : []))
    if (agent === 'codex' && values['codex-dir']) args.push('--codex-dir', path.resolve(io.cwd, values['codex-dir']))
    args.push('--decide')
    const baseUrl = values['base-url'] ?? settings.llm.baseUrl ?? DEFAULT_SETTINGS.llm.baseUrl
    const model = values.model ?? settings.llm.model ?? DEFAULT_SETTINGS.llm.model
    if (provider === 'openai') args.push('--llm', 'openai', '--base-url', baseUrl, '--model', model)

    io.stdout(agent === 'claude' ? claudeStopHook(args) : codexNotify(args))

    const notes: CodedText[] = []
    notes.push(coded(agent === 'claude' ? 'hooks.note_claude' : 'hooks.note_codex'))
    notes.push(
      settings.autoEnhance
        ? coded('hooks.auto_on', { file: settings.file })
        : coded(settings.found ? 'hooks.auto_off' : 'hooks.auto_off_new', { file: settings.file })
    )
    if (provider === 'openai') {
      const budget = settings.budgetChars ?? DEFAULT_SETTINGS.reflectBudgetChars
      notes.push(coded('hooks.cost', { model, url: baseUrl, chars: budget.toLocaleString('en-US'), tokens: Math.round(budget / 4).toLocaleString('en-US') }))
    } else {
      notes.push(coded('hooks.offline'))
    }
    io.stderr(notes.map((n) => say(io, n)).join('\n') + '\n')
    return 0
  }
}

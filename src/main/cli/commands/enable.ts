import { setSkillsEnabled } from '../../deploy/selection-service'
import { LIBRARY_OPTIONS, parseCommandArgs, printJson, resolveLibraryDir, UsageError, type CliCommand, type CliIo } from '../common'
import { coded } from '../../../shared/error-codes'

const OPTIONS = { ...LIBRARY_OPTIONS, to: { type: 'string' } } as const

/** `skillbench enable|disable SKILL... --to TARGET`: the same command with the direction fixed. */
export function enableCommand(name: 'enable' | 'disable'): CliCommand {
  const enabled = name === 'enable'
  return {
    name,
    options: OPTIONS,
    usage: `skillbench ${name} SKILL... --to TARGET --library DIR [--json]`,
    async run(argv: string[], io: CliIo) {
      const { values, positionals } = parseCommandArgs(argv, OPTIONS)
      if (!values.to) throw new UsageError(coded('cli.which_target'))
      if (positionals.length === 0) throw new UsageError(coded('cli.name_skills', { command: name }))
      const config = await setSkillsEnabled(resolveLibraryDir(values, io.cwd), values.to, positionals, enabled, { env: io.env, cwd: io.cwd })
      const key = Object.keys(config.disabled).find((k) => k === values.to!.trim()) ?? values.to
      const off = config.disabled[key] ?? []
      if (values.json) printJson(io, { target: values.to, disabled: off })
      else {
        io.stdout(`${enabled ? 'Enabled' : 'Disabled'} for ${values.to}: ${positionals.join(', ')}\n`)
        io.stdout(off.length > 0 ? `Disabled there now: ${off.join(', ')}\n` : 'Nothing is disabled there now.\n')
        io.stdout(`The next \`skillbench deploy --to ${values.to}\` ${enabled ? 'places them again' : 'removes the copies Skillbench placed (changed copies stay)'}.\n`)
      }
      return 0
    }
  }
}

export const command = enableCommand('enable')

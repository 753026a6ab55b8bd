import { openForCuration } from '../../curate/service'
import { proposalsWithStatus } from '../../review/plan'
import { LIBRARY_OPTIONS, parseCommandArgs, printJson, resolveLibraryDir, type CliCommand } from '../common'
import { formatProposal } from './curate'

export const command: CliCommand = {
  name: 'proposals',
  usage: 'skillbench proposals --library DIR | --root-dir DIR --user U [--json]',
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, LIBRARY_OPTIONS, false)
    const opened = await openForCuration(resolveLibraryDir(values, io.cwd))
    const { plan } = await proposalsWithStatus(opened.root)
    if (values.json) {
      printJson(io, { skills_loaded: plan.skills_loaded, created_at: plan.created_at, proposals: plan.proposals, errors: plan.errors })
      return 0
    }
    io.stdout(`Plan of ${plan.created_at}: ${plan.proposals.length} proposal(s) for ${plan.skills_loaded} skills\n`)
    for (const p of plan.proposals) io.stdout(`\n${formatProposal(p)}\n`)
    return 0
  }
}

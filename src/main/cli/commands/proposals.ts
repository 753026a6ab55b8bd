import { openForCuration } from '../../curate/service'
import { proposalsWithStatus } from '../../review/plan'
import { readRejections, type RejectionRecord } from '../../review/rejections'
import type { Proposal } from '../../../shared/types'
import { waitsForReview } from '../../../shared/proposal-status'
import { LIBRARY_OPTIONS, parseCommandArgs, printJson, resolveLibraryDir, type CliCommand } from '../common'
import { formatProposal } from './curate'

const OPTIONS = { ...LIBRARY_OPTIONS, all: { type: 'boolean', default: false } } as const

/** Waiting for a decision: pending, and undone (a person can review and accept it again); the one rule of src/shared. */
export { waitsForReview }

/** Rejections whose proposal is no longer in the plan (a member changed since, or the plan was replaced). */
function earlierRejections(records: readonly RejectionRecord[], proposals: readonly Proposal[]): RejectionRecord[] {
  const inPlan = new Set(proposals.map((p) => p.fingerprint).filter(Boolean))
  const latest = new Map(records.map((r) => [r.fingerprint, r]))
  return [...latest.values()].filter((r) => !inPlan.has(r.fingerprint))
}

export const command: CliCommand = {
  name: 'proposals',
  options: OPTIONS,
  usage: 'skillbench proposals --library DIR | --root-dir DIR --user U [--all] [--json]',
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, OPTIONS, false)
    const opened = await openForCuration(resolveLibraryDir(values, io.cwd))
    const { plan } = await proposalsWithStatus(opened.root)
    // --all: also the applied and rejected ones, and rejections of proposals no longer in the plan
    const shown = values.all ? plan.proposals : plan.proposals.filter(waitsForReview)
    const earlier = values.all ? earlierRejections(await readRejections(opened.root), plan.proposals) : []
    if (values.json) {
      printJson(io, { skills_loaded: plan.skills_loaded, created_at: plan.created_at, proposals: shown, errors: plan.errors, ...(values.all ? { earlier_rejections: earlier } : {}) })
      return 0
    }
    const hidden = plan.proposals.length - shown.length
    io.stdout(`Plan of ${plan.created_at}: ${shown.length} proposal(s) for ${plan.skills_loaded} skills${hidden ? ` (${hidden} applied or rejected not shown: --all)` : ''}\n`)
    for (const p of shown) io.stdout(`\n${formatProposal(p)}\n`)
    if (earlier.length) {
      io.stdout(`\nRejected earlier, no longer proposed (a member changed since):\n`)
      for (const r of earlier) io.stdout(`  [${r.proposal_id}] ${r.kind}  ${r.members.map((m) => m.title || m.skill_id).join(' + ')}  rejected ${r.at.slice(0, 10)} by ${r.by}\n`)
    }
    return 0
  }
}

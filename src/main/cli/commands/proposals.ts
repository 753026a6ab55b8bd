import { openForCuration } from '../../curate/service'
import { findQueued, readQueue } from '../../review/queue'
import { CurationError } from '../../review/transactions'
import { readRejections, type RejectionRecord } from '../../review/rejections'
import type { Proposal } from '../../../shared/types'
import { waitsForReview } from '../../../shared/proposal-status'
import { LIBRARY_OPTIONS, parseCommandArgs, printJson, resolveLibraryDir, UsageError, type CliCommand } from '../common'
import { formatProposal } from './curate'
import { formatProposalReview, proposalDiffs, skillsTouched } from '../proposal-review'
import { coded } from '../../../shared/error-codes'

const OPTIONS = { ...LIBRARY_OPTIONS, all: { type: 'boolean', default: false }, diff: { type: 'boolean', default: false } } as const

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
  usage:
    'skillbench proposals [ID] --library DIR | --root-dir DIR --user U [--all] [--diff] [--json]\n' +
    '  Every proposal waiting for review: the plan\'s (curate, reflect, update, sync, deploy drift, memory) and the\n' +
    '  edits and retirements agents proposed over MCP (.skillbench/pending/).\n' +
    '  ID        show that proposal (any status): why it is proposed (reasons, notes, an update\'s audit findings)\n' +
    '            and a unified diff of each file it changes\n' +
    '  --diff    the same for every proposal listed\n' +
    '  --all     also the applied and rejected ones, and rejections of proposals no longer in the plan',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS)
    if (positionals.length > 1) throw new UsageError(coded('cli.proposals_one_id'))
    const opened = await openForCuration(resolveLibraryDir(values, io.cwd))
    if (positionals.length === 1) {
      const p = await findQueued(opened.root, positionals[0]!)
      if (values.json) printJson(io, { proposal: p, diffs: proposalDiffs(p) })
      else io.stdout(`${formatProposalReview(p)}\n`)
      return 0
    }
    const { plan, createdAt } = await readQueue(opened.root)
    // nothing waits anywhere and curate never ran: say so, as before
    if (createdAt === null && plan.proposals.length === 0) throw new CurationError('not_found', coded('review.no_plan'))
    // --all: also the applied and rejected ones, and rejections of proposals no longer in the plan
    const shown = values.all ? plan.proposals : plan.proposals.filter(waitsForReview)
    const earlier = values.all ? earlierRejections(await readRejections(opened.root), plan.proposals) : []
    const touched = skillsTouched(shown)
    if (values.json) {
      const listed = values.diff ? shown.map((p) => ({ ...p, diffs: proposalDiffs(p) })) : shown
      printJson(io, { skills_loaded: plan.skills_loaded, created_at: createdAt, proposals: listed, errors: plan.errors, ...(values.all ? { earlier_rejections: earlier } : {}), skills_touched: touched })
      return 0
    }
    const hidden = plan.proposals.length - shown.length
    const read = plan.skills_loaded > 0 ? `; curate read ${plan.skills_loaded} skills` : ''
    const head = createdAt === null ? 'Waiting for review' : `Plan of ${createdAt}`
    // a memory proposal changes an agent's memory files, no skill
    const memory = shown.filter((p) => p.kind === 'memory').length
    const forMemory = memory ? ` (${memory} of them for memory)` : ''
    io.stdout(`${head}: ${shown.length} proposal(s) for ${touched} skill(s)${forMemory}${read}${hidden ? ` (${hidden} applied or rejected not shown: --all)` : ''}\n`)
    for (const p of shown) io.stdout(`\n${values.diff ? formatProposalReview(p) : formatProposal(p)}\n`)
    if (!values.diff && shown.length > 0) io.stdout(`\nSee one with its diff: \`skillbench proposals ID\`.\n`)
    if (earlier.length) {
      io.stdout(`\nRejected earlier, no longer proposed (a member changed since):\n`)
      for (const r of earlier) io.stdout(`  [${r.proposal_id}] ${r.kind}  ${r.members.map((m) => m.title || m.skill_id).join(' + ')}  rejected ${r.at.slice(0, 10)} by ${r.by}\n`)
    }
    return 0
  }
}

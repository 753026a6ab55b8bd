/** Curation's evidence and lasting decisions on the Curate screen (issue 36): coverage, used-member warnings, rejections. */
import { useEffect, useRef, useState } from 'react'
import type { CleanupCoverage, Proposal } from '../../../shared/types'
import { Badge } from '../../components/Badge'
import { formatDate } from '../../components/format'
import { useI18n } from '../../i18n/i18n'
import { authorName } from '../overview/OverviewScreen'
import { coverageLines, usedRetiredText } from './decision-text'
import { proposalTitle } from './proposal-text'

/** What watched the library's use before anything is called unused (or that nothing did). */
export function CleanupCoverageNote(props: { coverage?: CleanupCoverage }): React.JSX.Element | null {
  const { t } = useI18n()
  if (!props.coverage) return null
  const lines = coverageLines(t, props.coverage)
  return (
    <div className="panel small cleanup-coverage" data-testid="cleanup-coverage" role="note">
      {lines.map((l, i) => (
        <p key={i} className={i === 0 ? undefined : 'muted'}>
          {l}
        </p>
      ))}
    </div>
  )
}

/** A merge's or consolidation's warning that it retires skills agents used. */
export function UsedRetiredWarning(props: { proposal: Proposal }): React.JSX.Element | null {
  const { t } = useI18n()
  const text = usedRetiredText(t, props.proposal)
  if (!text) return null
  return (
    <p className="proposal-warning" data-testid="used-retired" role="note">
      <Badge tone="warn">⚠</Badge> {text}
    </p>
  )
}

/** When and by whom a proposal was rejected, or that an undone one can be decided again. */
export function DecisionLine(props: { proposal: Proposal }): React.JSX.Element | null {
  const { t, lang } = useI18n()
  const p = props.proposal
  if (p.status === 'rejected' && p.rejected) {
    return (
      <p className="muted small" data-testid="rejected-on">
        {t('decide.rejectedOn', { date: formatDate(p.rejected.at, lang), who: authorName(t, p.rejected.by) })}
      </p>
    )
  }
  if (p.status === 'undone') {
    return (
      <p className="muted small" data-testid="undone-help">
        {t('decide.undoneHelp')}
      </p>
    )
  }
  return null
}

/**
 * What stands in a card's place right after it was rejected: that it was, and its Undo. Announced (a status) and
 * focused when it appears (the Reject button it replaces is gone), so the way back is one key away.
 */
export function RejectedPlace(props: { proposal: Proposal; onUndo: () => void; busy: boolean }): React.JSX.Element {
  const { t } = useI18n()
  const undo = useRef<HTMLButtonElement>(null)
  useEffect(() => undo.current?.focus(), [])
  const p = props.proposal
  const title = proposalTitle(p)
  return (
    <div className="proposal proposal-rejected" role="status" data-testid="rejected-place">
      <span>{t('decide.rejectedPlace', { kind: t(`kind.${p.kind}`), title })}</span>
      <div className="spacer" />
      <button ref={undo} type="button" className="btn btn-small" data-testid="rejected-undo" aria-label={t('decide.undoRejectOf', { title })} disabled={props.busy} onClick={props.onUndo}>
        {t('decide.undoReject')}
      </button>
    </div>
  )
}

/** How many rejections the review screen lists before "Show all". */
const RECENT_REJECTIONS = 10

/** Newest rejection first; one without a date (an agent's proposal rejected in its pending file) last. */
function newestRejectedFirst(a: Proposal, b: Proposal): number {
  const x = a.rejected?.at ?? ''
  const y = b.rejected?.at ?? ''
  return x < y ? 1 : x > y ? -1 : 0
}

/**
 * The rejected proposals of the review queue, newest first, each with its Undo (they stay rejected until one of their
 * skills changes or a person undoes it). On the review screen's proposals (`place: 'plan'`): "Recently rejected", the
 * latest ten and a "Show all", so a rejection made before the plan was computed again is one Tab away; in History:
 * every one. The plan keeps rejected proposals of every kind across a recompute (review/plan.ts proposalsToKeep).
 */
export function RejectedList(props: { proposals: readonly Proposal[]; onUndo: (id: string) => void; busy: boolean; place: 'plan' | 'history' }): React.JSX.Element | null {
  const { t, lang } = useI18n()
  const [all, setAll] = useState(false)
  const rejected = props.proposals.filter((p) => p.status === 'rejected').sort(newestRejectedFirst)
  if (rejected.length === 0) return null
  const plan = props.place === 'plan'
  const shown = plan && !all ? rejected.slice(0, RECENT_REJECTIONS) : rejected
  const id = plan ? 'recently-rejected' : 'rejected-history'
  return (
    <section className="proposal-group" data-testid={id} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>
        {t(plan ? 'decide.recentTitle' : 'decide.rejectedTitle')}
        {lang === 'zh' ? '' : ' '}
        <span className="muted">{t('curate.groupCount', { n: rejected.length })}</span>
      </h2>
      <p className="muted">{t('decide.rejectedHelp')}</p>
      <ul className="journal">
        {shown.map((p) => (
          <li key={p.id} className="journal-entry" data-testid="rejected-entry">
            <Badge tone="muted">{t(`kind.${p.kind}`)}</Badge>
            <span className="ellipsis">{proposalTitle(p)}</span>
            <div className="spacer" />
            {p.rejected && <span className="muted">{t('decide.rejectedWhen', { date: formatDate(p.rejected.at, lang), who: authorName(t, p.rejected.by) })}</span>}
            <button type="button" className="btn" data-testid={`${id}-undo`} aria-label={t('decide.undoRejectOf', { title: proposalTitle(p) })} disabled={props.busy} onClick={() => props.onUndo(p.id)}>
              {t('decide.undoReject')}
            </button>
          </li>
        ))}
      </ul>
      {shown.length < rejected.length && (
        <button type="button" className="btn btn-small" data-testid={`${id}-all`} onClick={() => setAll(true)}>
          {t('decide.showAllRejected', { n: rejected.length })}
        </button>
      )}
    </section>
  )
}

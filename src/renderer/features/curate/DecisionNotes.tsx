/** Curation's evidence and lasting decisions on the Curate screen (issue 36): coverage, used-member warnings, rejections. */
import { useEffect, useRef } from 'react'
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

/** The history's list of rejected proposals (they stay rejected until one of their skills changes or a person undoes it). */
export function RejectedHistory(props: { proposals: readonly Proposal[]; onUndo: (id: string) => void; busy: boolean }): React.JSX.Element | null {
  const { t, lang } = useI18n()
  const rejected = props.proposals.filter((p) => p.status === 'rejected')
  if (rejected.length === 0) return null
  return (
    <section className="proposal-group" data-testid="rejected-history" aria-labelledby="rejected-history-title">
      <h2 id="rejected-history-title">
        {t('decide.rejectedTitle')} <span className="muted">({rejected.length})</span>
      </h2>
      <p className="muted">{t('decide.rejectedHelp')}</p>
      <ul className="journal">
        {rejected.map((p) => (
          <li key={p.id} className="journal-entry" data-testid="rejected-entry">
            <Badge tone="muted">{t(`kind.${p.kind}`)}</Badge>
            <span className="ellipsis">{proposalTitle(p)}</span>
            <div className="spacer" />
            {p.rejected && <span className="muted">{t('decide.rejectedWhen', { date: formatDate(p.rejected.at, lang), who: authorName(t, p.rejected.by) })}</span>}
            <button type="button" className="btn" data-testid="rejected-history-undo" aria-label={t('decide.undoRejectOf', { title: proposalTitle(p) })} disabled={props.busy} onClick={() => props.onUndo(p.id)}>
              {t('decide.undoReject')}
            </button>
          </li>
        ))}
      </ul>
    </section>
  )
}

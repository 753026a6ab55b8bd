import { useEffect, useMemo, useRef, useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { JournalEntry, Proposal, ProposalKind } from '../../../shared/types'
import { waitsForReview } from '../../../shared/proposal-status'
import { useApi } from '../../api/context'
import { jobError, latestJob } from '../../api/job-store'
import { useJobs, useJobStore } from '../../api/jobs'
import { queryKeys } from '../../api/query-keys'
import { useAppState } from '../../app-state'
import { Badge } from '../../components/Badge'
import { DiffView } from '../../components/code-editor/CodeEditor'
import { Dialog } from '../../components/Dialog'
import { ErrorNotice } from '../../components/ErrorNotice'
import { NoLibrary } from '../../components/NoLibrary'
import { formatDate } from '../../components/format'
import { useFocusSoon } from '../../components/focus-soon'
import { ProgressBar } from '../../components/ProgressBar'
import { useI18n } from '../../i18n/i18n'
import { translateLine } from '../../i18n/messages-errors'
import { authorName } from '../overview/OverviewScreen'
import { groupChanges, proposalReason, proposalTitle, sharedWords } from './proposal-text'
import type { FileMove } from './proposal-text'
import { ReviewEvidence } from '../usage/ReviewEvidence'
import { HighRiskBadge, UpdateAudit } from '../audit/UpdateAudit'
import { CleanupCoverageNote, DecisionLine, RejectedList, RejectedPlace, UsedRetiredWarning } from './DecisionNotes'
import { SyncPanel } from '../sync/SyncPanel'

const KIND_ORDER: ProposalKind[] = ['review', 'merge', 'consolidate', 'cleanup', 'enhance', 'edit', 'delete', 'update', 'learned', 'memory']

/** One click computes the curation plan; review each proposal in a diff; undo right after accepting or rejecting, or from history. */
export function CurateScreen(): React.JSX.Element {
  const { t, lang } = useI18n()
  const api = useApi()
  const client = useQueryClient()
  const store = useJobStore()
  const jobs = useJobs()
  const { library, navigate, route } = useAppState()
  const [reviewing, setReviewing] = useState<Proposal | null>(null)
  const [tab, setTab] = useState<'plan' | 'history'>(route.screen === 'curate' && route.tab === 'history' ? 'history' : 'plan')
  const [applied, setApplied] = useState<{ entry: JournalEntry; proposal: Proposal } | null>(null)
  const lib = library ?? ''
  const plan = useQuery({ queryKey: queryKeys.curatePlan(lib), queryFn: () => api.call('curate.plan', { library: lib }), enabled: !!library })
  const journal = useQuery({ queryKey: queryKeys.journal(lib), queryFn: () => api.call('curate.journal', { library: lib }), enabled: !!library })
  const job = latestJob(jobs, 'curate')
  const running = job?.state === 'running'
  const refresh = (): void => void client.invalidateQueries({ queryKey: queryKeys.library(lib) })
  const [undone, setUndone] = useState(false)
  // focus follows the action: the job's progress, then the new plan; after Accept its Undo; after Undo the result
  const focusSoon = useFocusSoon()
  const computing = useRef(false)
  useEffect(() => {
    if (computing.current && job?.state === 'done') {
      computing.current = false
      focusSoon('plan-info')
    }
  }, [job?.state, focusSoon])

  // proposals rejected here: each keeps its card's place with "Rejected — Undo" (until the screen is left or the plan computed
  // again; then Recently rejected, below the proposals, lists it with its Undo)
  const [justRejected, setJustRejected] = useState<ReadonlySet<string>>(new Set())
  const [unrejected, setUnrejected] = useState(false)
  const start = useMutation({
    mutationFn: () => api.call('curate.start', { library: lib }),
    onSuccess: (info) => {
      store.track(info)
      setJustRejected(new Set()) // a new plan: a rejected proposal shows as such (its Undo in Recently rejected and History)
      computing.current = true
      focusSoon('curate-job')
    }
  })
  const rejectedHere = (id: string): void => {
    setJustRejected((prev) => new Set(prev).add(id))
    setUnrejected(false)
    refresh()
  }
  const reject = useMutation({ mutationFn: (id: string) => api.call('curate.reject', { library: lib, proposalId: id }), onSuccess: (_p, id) => rejectedHere(id) })
  const unreject = useMutation({
    mutationFn: (id: string) => api.call('curate.unreject', { library: lib, proposalId: id }),
    onSuccess: (_p, id) => {
      setJustRejected((prev) => new Set([...prev].filter((x) => x !== id)))
      setUnrejected(true)
      setUndone(false)
      focusSoon('unrejected-status')
      refresh()
    }
  })
  const undo = useMutation({
    mutationFn: (id: string) => api.call('curate.undo', { library: lib, entryId: id }),
    onSuccess: () => {
      setApplied(null)
      setUndone(true)
      focusSoon('undone-status')
      refresh()
    }
  })

  // opened on one proposal (the Memory screen's "Review on Curate"): that one alone, while the plan holds it
  const wanted = route.screen === 'curate' ? route.proposal : undefined
  const only = wanted !== undefined && plan.data?.proposals.some((p) => p.id === wanted) ? wanted : undefined
  useEffect(() => {
    if (only) focusSoon('curate-only')
  }, [only, focusSoon])
  const groups = useMemo(() => {
    const map = new Map<ProposalKind, Proposal[]>()
    for (const p of plan.data?.proposals ?? []) if (!only || p.id === only) map.set(p.kind, [...(map.get(p.kind) ?? []), p])
    // what still waits for a decision first; rejected ones last (they stay rejected until a skill changes)
    // (one just rejected here keeps its place)
    const last = (p: Proposal): number => (p.status === 'rejected' && !justRejected.has(p.id) ? 1 : 0)
    return KIND_ORDER.filter((k) => map.has(k)).map((k) => ({ kind: k, proposals: [...map.get(k)!].sort((a, b) => last(a) - last(b)) }))
  }, [plan.data, only, justRejected])
  const protectedSkills = plan.data?.protected ?? []
  // the queue's own files (review/pending-proposals.ts PENDING_DIR); the plan's other errors are skills, on the Skills screen
  const pendingErrors = (plan.data?.errors ?? []).filter((e) => e.path.startsWith('.skillbench/pending/'))

  if (!library) return <NoLibrary title="curate.title" />
  return (
    <section className="screen" aria-labelledby="curate-title">
      <header className="screen-header">
        <h1 id="curate-title">{t('curate.title')}</h1>
        <div className="spacer" />
        <button type="button" className="btn btn-primary" data-testid="curate-start" disabled={running || start.isPending} onClick={() => start.mutate()}>
          {t('curate.compute')}
        </button>
      </header>
      <p className="lead">{t('curate.lead')}</p>
      <p className="muted">{t('curate.queueLead')}</p>
      <SyncPanel library={lib} />
      {start.error && <ErrorNotice error={start.error} action="failed.curate" />}
      {job && job.state !== 'done' && (
        <div className="panel" tabIndex={-1} data-testid="curate-job">
          <ProgressBar value={job.fraction} label={t('curate.computing')} testId="curate-progress" />
          <p className="muted">{job.state === 'running' ? translateLine(job.messageRef, job.message, lang) : t(`job.state.${job.state}`)}</p>
          {job.error && <ErrorNotice error={jobError(job)} action="failed.curate" />}
        </div>
      )}
      {applied && (
        <div className="banner banner-ok" role="status" data-testid="applied-banner">
          <span>{t('curate.appliedBanner', { kind: t(`kind.${applied.proposal.kind}`), what: proposalTitle(applied.proposal) })}</span>
          <div className="spacer" />
          <button type="button" className="btn btn-small" data-testid="applied-undo" disabled={undo.isPending} onClick={() => undo.mutate(applied.entry.id)}>
            {t('curate.undo')}
          </button>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => setApplied(null)}>
            {t('curate.dismiss')}
          </button>
        </div>
      )}
      {undone && !applied && (
        <p className="banner banner-ok" role="status" tabIndex={-1} data-testid="undone-status">
          {t('curate.undoneStatus')}
        </p>
      )}
      {unrejected && (
        <p className="banner banner-ok" role="status" tabIndex={-1} data-testid="unrejected-status">
          {t('decide.unrejectedStatus')}
        </p>
      )}
      {undo.error && <ErrorNotice error={undo.error} action="failed.undo" />}
      {unreject.error && <ErrorNotice error={unreject.error} action="failed.unreject" />}
      <div className="tabs" role="tablist" aria-label={t('curate.title')}>
        <button type="button" role="tab" id="curate-tab-plan" aria-controls="curate-panel-plan" aria-selected={tab === 'plan'} className="tab" data-testid="curate-tab-plan" onClick={() => setTab('plan')}>
          {t('curate.plan')}
        </button>
        <button type="button" role="tab" id="curate-tab-history" aria-controls="curate-panel-history" aria-selected={tab === 'history'} className="tab" data-testid="curate-tab-history" onClick={() => setTab('history')}>
          {t('curate.history')}
        </button>
      </div>
      {tab === 'plan' ? (
        <div role="tabpanel" id="curate-panel-plan" aria-labelledby="curate-tab-plan">
          {plan.error && <ErrorNotice error={plan.error} action="failed.loadPlan" onRetry={() => void plan.refetch()} />}
          {reject.error && <ErrorNotice error={reject.error} action="failed.reject" />}
          {plan.data && (
            <p className="muted" data-testid="plan-info" tabIndex={-1}>
              {plan.data.computedAt
                ? t('curate.computedAt', { at: formatDate(plan.data.computedAt, lang), n: plan.data.skills_loaded })
                : // proposals that came without a plan (updates, agents' edits, deploy drift) wait below: say so, not "no plan"
                  (() => {
                    const waiting = plan.data.proposals.filter(waitsForReview).length
                    return waiting > 0 ? t('curate.notComputedWithPending', { n: waiting }) : t('curate.notComputed')
                  })()}
            </p>
          )}
          {only && plan.data && (
            <div className="banner banner-info" data-testid="curate-only-bar">
              <p tabIndex={-1} data-testid="curate-only">
                {t('curate.onlyOne')}
              </p>
              <div className="spacer" />
              <button type="button" className="btn btn-small" data-testid="curate-show-all" onClick={() => navigate({ screen: 'curate' })}>
                {t('curate.showAll', { n: plan.data.proposals.length })}
              </button>
            </div>
          )}
          {plan.data?.computedAt && <CleanupCoverageNote coverage={plan.data.cleanup} />}
          {pendingErrors.length > 0 && (
            // agents' proposal files that do not read (the review queue's errors from .skillbench/pending/), by code
            <details className="load-errors" data-testid="pending-errors">
              <summary>{t('curate.pendingErrors', { n: pendingErrors.length })}</summary>
              <ul>
                {pendingErrors.map((e) => (
                  <li key={e.path}>
                    <code>{e.path}</code> — {translateLine(e, e.reason, lang)}
                  </li>
                ))}
              </ul>
            </details>
          )}
          {plan.data && plan.data.computedAt && groups.length === 0 && <p className="empty">{t('curate.noProposals')}</p>}
          {groups.map((g) => (
            <section key={g.kind} className="proposal-group" data-testid={`group-${g.kind}`}>
              <h2>
                {t(`kind.${g.kind}`)}
                {lang === 'zh' ? '' : ' '}
                <span className="muted">{t('curate.groupCount', { n: g.proposals.length })}</span>
              </h2>
              {g.proposals.map((p) =>
                justRejected.has(p.id) ? (
                  <RejectedPlace key={p.id} proposal={p} onUndo={() => unreject.mutate(p.id)} busy={unreject.isPending} />
                ) : (
                  <ProposalCard key={p.id} proposal={p} onReview={() => setReviewing(p)} onReject={() => reject.mutate(p.id)} rejecting={reject.isPending} />
                )
              )}
            </section>
          ))}
          {/* rejections made before the plan was computed again: each with its Undo, here where proposals are reviewed */}
          {!only && <RejectedList place="plan" proposals={plan.data?.proposals ?? []} onUndo={(id) => unreject.mutate(id)} busy={unreject.isPending} />}
          {protectedSkills.length > 0 && (
            <section className="proposal-group" data-testid="protected-skills">
              <h2>
                {t('curate.protected')} <span className="muted">({protectedSkills.length})</span>
              </h2>
              <p className="muted">{t('curate.protectedHelp')}</p>
              <ul className="protected-list">
                {protectedSkills.map((s) => (
                  <li key={s.skill_id}>
                    <button type="button" className="link" onClick={() => navigate({ screen: 'editor', library: lib, skillId: s.skill_id })}>
                      {s.title || s.skill_id}
                    </button>{' '}
                    <Badge tone="muted">{t(s.reason === 'pinned' ? 'curate.pinned' : 'curate.editedByHand')}</Badge>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </div>
      ) : (
        <div role="tabpanel" id="curate-panel-history" aria-labelledby="curate-tab-history" data-testid="journal">
          {journal.error && <ErrorNotice error={journal.error} action="failed.loadHistory" onRetry={() => void journal.refetch()} />}
          {journal.data && journal.data.length === 0 && <p className="empty">{t('curate.noHistory')}</p>}
          <RejectedList place="history" proposals={plan.data?.proposals ?? []} onUndo={(id) => unreject.mutate(id)} busy={unreject.isPending} />
          <ul className="journal">
            {[...(journal.data ?? [])].reverse().map((e) => (
              <li key={e.id} className="journal-entry" data-testid="journal-entry">
                <Badge tone="accent">{t(`kind.${e.kind}`)}</Badge>
                <span>{formatDate(e.at, lang)}</span>
                <span className="muted">{t('curate.appliedBy', { who: authorName(t, e.by) })}</span>
                <span className="cell-sub ellipsis">{e.changes.map((c) => c.path).join(', ')}</span>
                <div className="spacer" />
                {e.undone_at ? (
                  <Badge tone="muted" testId="journal-undone">
                    {t('curate.undone')}
                  </Badge>
                ) : (
                  <button type="button" className="btn" data-testid="journal-undo" disabled={undo.isPending} onClick={() => undo.mutate(e.id)}>
                    {t('curate.undo')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      {reviewing && (
        <ReviewDialog
          library={lib}
          proposal={reviewing}
          onClose={() => setReviewing(null)}
          onRejected={() => {
            rejectedHere(reviewing.id)
            setReviewing(null)
          }}
          onDone={(entry) => {
            if (entry) {
              setApplied({ entry, proposal: reviewing })
              setUndone(false)
              focusSoon('applied-undo')
            }
            setReviewing(null)
            refresh()
          }}
        />
      )}
    </section>
  )
}

function ProposalCard(props: { proposal: Proposal; onReview: () => void; onReject: () => void; rejecting: boolean }): React.JSX.Element {
  const { t, lang } = useI18n()
  const p = props.proposal
  const reason = proposalReason(t, p, lang)
  const words = sharedWords(p)
  const { edits, moves } = groupChanges(p.changes)
  // after a label's colon: a full-width one (Chinese) carries its own space
  const gap = lang === 'zh' ? '' : ' '
  return (
    <article className="proposal" data-testid="proposal">
      <div className="proposal-head">
        <Badge tone="accent">{t(`kind.${p.kind}`)}</Badge>
        <HighRiskBadge proposal={p} />
        <span className="strong ellipsis">{proposalTitle(p)}</span>
        <div className="spacer" />
        <Badge tone={p.status === 'applied' ? 'ok' : p.status === 'rejected' || p.status === 'undone' ? 'muted' : 'info'}>{t(`proposal.${p.status ?? 'pending'}`)}</Badge>
      </div>
      <p className="proposal-reason" data-testid="proposal-reason">
        {reason.text}
      </p>
      {reason.quote && <blockquote className="proposal-quote">{reason.quote}</blockquote>}
      <UsedRetiredWarning proposal={p} />
      <DecisionLine proposal={p} />
      <div className="evidence">
        {typeof p.evidence.similarity === 'number' && p.kind !== 'cleanup' && (
          <span>
            {t('curate.similarity')}
            {gap}
            <strong>{p.evidence.similarity.toFixed(2)}</strong>
          </span>
        )}
        {words.length > 0 && (
          <span className="terms" data-testid="shared-words">
            {t('curate.sharedWords')}
            {gap}
            {words.slice(0, 10).map((w) => (
              <span key={w} className="term">
                {w}
              </span>
            ))}
          </span>
        )}
        {typeof p.evidence.task === 'string' && <span data-testid="proposal-task">{t('curate.fromTask', { task: p.evidence.task })}</span>}
        {typeof p.evidence.tool === 'string' && <span data-testid="proposal-tool">{t('curate.agentTool', { tool: p.evidence.tool })}</span>}
        {p.author && (
          <span className="muted" data-testid="proposal-author">
            {t('curate.proposedBy', { who: authorName(t, p.author) })}
          </span>
        )}
      </div>
      <ul className="cell-sub proposal-changes" data-testid="proposal-changes">
        {/* a review rewrites nothing unless the reviewer edits the skill */}
        {edits
          .filter((c) => c.before !== c.after)
          .map((c) => (
            <li key={c.path}>{t(c.before === null ? 'curate.willCreate' : 'curate.willRewrite', { path: c.path })}</li>
          ))}
        {moves.map((m) => (
          <li key={m.from} data-testid="proposal-move">
            {t('curate.willMove', { from: m.from, to: m.to })}
          </li>
        ))}
      </ul>
      {Array.isArray(p.evidence.changes) && p.evidence.changes.length > 0 && (
        <ul className="cell-sub proposal-changes">
          {p.evidence.changes.slice(0, 8).map((c, i) => (
            <li key={i}>{String(c)}</li>
          ))}
        </ul>
      )}
      {p.kind === 'review' && <ReviewEvidence proposal={p} />}
      <UpdateAudit proposal={p} />
      {/* an undone proposal can be reviewed and accepted (or rejected) again */}
      {waitsForReview(p) && (
        <div className="proposal-actions">
          <button type="button" className="btn btn-primary" data-testid="proposal-review" onClick={props.onReview}>
            {t('curate.review')}
          </button>
          <button type="button" className="btn" data-testid="proposal-reject" disabled={props.rejecting} onClick={props.onReject}>
            {t(p.kind === 'review' ? 'curate.keepAsIs' : 'curate.reject')}
          </button>
        </div>
      )}
    </article>
  )
}

/** Before → after of each rewritten file (the right side is editable), and the files moving to legacy/. */
function ReviewDialog(props: { library: string; proposal: Proposal; onClose: () => void; onDone: (entry?: JournalEntry) => void; onRejected: () => void }): React.JSX.Element {
  const { t, lang } = useI18n()
  const api = useApi()
  const { proposal } = props
  const { edits: rewritten, moves } = useMemo(() => groupChanges(proposal.changes), [proposal.changes])
  const [index, setIndex] = useState(0)
  const [edits, setEdits] = useState<Record<string, string>>({})
  const tabs = rewritten.length + (moves.length > 0 ? 1 : 0)
  const change = rewritten[index]
  const accept = useMutation({
    mutationFn: () => {
      const edited = Object.keys(edits).length > 0 ? proposal.changes.map((c) => (c.path in edits ? { ...c, after: edits[c.path]! } : c)) : undefined
      return api.call('curate.accept', { library: props.library, proposalId: proposal.id, edited })
    },
    onSuccess: (entry) => props.onDone(entry)
  })
  const reject = useMutation({ mutationFn: () => api.call('curate.reject', { library: props.library, proposalId: proposal.id }), onSuccess: () => props.onRejected() })
  return (
    <Dialog title={t('curate.reviewTitle', { kind: t(`kind.${proposal.kind}`), title: proposalTitle(proposal) })} onClose={props.onClose} wide testId="review-dialog">
      <p className="proposal-reason">{proposalReason(t, proposal, lang).text}</p>
      <UsedRetiredWarning proposal={proposal} />
      {proposal.kind === 'review' && <p className="muted small">{t('curate.reviewHint')}</p>}
      {tabs > 1 && (
        <div className="tabs" role="tablist" aria-label={t('curate.files')}>
          {rewritten.map((c, i) => (
            <button key={c.path} type="button" role="tab" aria-selected={i === index} className="tab" onClick={() => setIndex(i)} title={c.path}>
              <span className="ellipsis">{c.path}</span> <span className="muted">({t(c.before === null ? 'curate.fileNew' : 'curate.fileChanged')})</span>
              {c.path in edits ? ' ✎' : ''}
            </button>
          ))}
          {moves.length > 0 && (
            <button type="button" role="tab" aria-selected={index === rewritten.length} className="tab" data-testid="review-moves-tab" onClick={() => setIndex(rewritten.length)}>
              {t('curate.movesTab', { n: moves.length })}
            </button>
          )}
        </div>
      )}
      {change ? (
        <>
          <div className="diff-legend">
            <span>{t('curate.before')}</span>
            <span>{t('curate.afterEditable')}</span>
          </div>
          <DiffView
            key={change.path}
            original={change.before ?? ''}
            modified={edits[change.path] ?? change.after ?? ''}
            onModifiedChange={(text) => setEdits((prev) => ({ ...prev, [change.path]: text }))}
            ariaLabel={change.path}
            originalLabel={`${change.path}: ${t('curate.before')}`}
            modifiedLabel={`${change.path}: ${t('curate.afterEditable')}`}
            height="52vh"
          />
        </>
      ) : (
        <MovesList moves={moves} />
      )}
      {proposal.kind === 'review' && <ReviewEvidence proposal={proposal} />}
      <UpdateAudit proposal={proposal} />
      {accept.error && <ErrorNotice error={accept.error} action="failed.accept" />}
      {reject.error && <ErrorNotice error={reject.error} action="failed.reject" />}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={props.onClose}>
          {t('common.cancel')}
        </button>
        <button type="button" className="btn" data-testid="review-reject" disabled={reject.isPending || accept.isPending} onClick={() => reject.mutate()}>
          {t(proposal.kind === 'review' ? 'curate.keepAsIs' : 'curate.reject')}
        </button>
        <button
          type="button"
          className="btn btn-primary"
          data-testid="review-accept"
          // a review changes nothing until the skill is edited
          disabled={accept.isPending || reject.isPending || (proposal.kind === 'review' && !Object.entries(edits).some(([p, text]) => text !== proposal.changes.find((c) => c.path === p)?.before))}
          onClick={() => accept.mutate()}
        >
          {proposal.kind === 'review' ? t('curate.saveEdit') : Object.keys(edits).length > 0 ? t('curate.acceptEdited') : t('curate.accept')}
        </button>
      </div>
    </Dialog>
  )
}

/** Files that move to legacy/: where they go, that they can be restored, and what they hold (folded). */
function MovesList(props: { moves: FileMove[] }): React.JSX.Element {
  const { t } = useI18n()
  return (
    <ul className="moves" data-testid="review-moves">
      {props.moves.map((m) => (
        <li key={m.from} className="move">
          <p>
            <code>{m.from}</code> → <code>{m.to}</code> <Badge tone="info">{t('curate.restorable')}</Badge>
          </p>
          <p className="muted small">{t('curate.restoreHow')}</p>
          <details>
            <summary>{t('curate.showFile')}</summary>
            <pre className="move-preview">{m.text}</pre>
          </details>
        </li>
      ))}
    </ul>
  )
}

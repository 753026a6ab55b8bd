import { useMemo, useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { FileChange, Proposal, ProposalKind } from '../../../shared/types'
import { useApi } from '../../api/context'
import { latestJob } from '../../api/job-store'
import { useJobs, useJobStore } from '../../api/jobs'
import { queryKeys } from '../../api/query-keys'
import { useAppState } from '../../app-state'
import { Badge } from '../../components/Badge'
import { DiffView } from '../../components/code-editor/CodeEditor'
import { Dialog } from '../../components/Dialog'
import { ErrorNotice } from '../../components/ErrorNotice'
import { formatDate } from '../../components/format'
import { ProgressBar } from '../../components/ProgressBar'
import { useI18n } from '../../i18n/i18n'

const KIND_ORDER: ProposalKind[] = ['merge', 'consolidate', 'cleanup', 'enhance', 'edit', 'delete']

/** One click computes the curation plan; review each proposal in a diff; history with undo. */
export function CurateScreen(): React.JSX.Element {
  const { t, lang } = useI18n()
  const api = useApi()
  const client = useQueryClient()
  const store = useJobStore()
  const jobs = useJobs()
  const { library } = useAppState()
  const [reviewing, setReviewing] = useState<Proposal | null>(null)
  const [tab, setTab] = useState<'plan' | 'history'>('plan')
  const lib = library ?? ''
  const plan = useQuery({ queryKey: queryKeys.curatePlan(lib), queryFn: () => api.call('curate.plan', { library: lib }), enabled: !!library })
  const journal = useQuery({ queryKey: queryKeys.journal(lib), queryFn: () => api.call('curate.journal', { library: lib }), enabled: !!library })
  const job = latestJob(jobs, 'curate')
  const running = job?.state === 'running'
  const refresh = (): void => void client.invalidateQueries({ queryKey: queryKeys.library(lib) })

  const start = useMutation({ mutationFn: () => api.call('curate.start', { library: lib }), onSuccess: (info) => store.track(info) })
  const reject = useMutation({ mutationFn: (id: string) => api.call('curate.reject', { library: lib, proposalId: id }), onSuccess: refresh })
  const undo = useMutation({ mutationFn: (id: string) => api.call('curate.undo', { library: lib, entryId: id }), onSuccess: refresh })

  const groups = useMemo(() => {
    const map = new Map<ProposalKind, Proposal[]>()
    for (const p of plan.data?.proposals ?? []) map.set(p.kind, [...(map.get(p.kind) ?? []), p])
    return KIND_ORDER.filter((k) => map.has(k)).map((k) => ({ kind: k, proposals: map.get(k)! }))
  }, [plan.data])

  if (!library)
    return (
      <section className="screen">
        <h1>{t('curate.title')}</h1>
        <p className="empty">{t('shell.noLibraryHelp')}</p>
      </section>
    )
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
      {start.error && <ErrorNotice error={start.error} />}
      {job && job.state !== 'done' && (
        <div className="panel">
          <ProgressBar value={job.fraction} label={t('curate.computing')} testId="curate-progress" />
          <p className="muted">{job.state === 'running' ? job.message : t(`job.state.${job.state}`)}</p>
          {job.error && <ErrorNotice error={new Error(job.error)} />}
        </div>
      )}
      <div className="tabs" role="tablist" aria-label={t('curate.title')}>
        <button type="button" role="tab" aria-selected={tab === 'plan'} className="tab" data-testid="curate-tab-plan" onClick={() => setTab('plan')}>
          {t('curate.plan')}
        </button>
        <button type="button" role="tab" aria-selected={tab === 'history'} className="tab" data-testid="curate-tab-history" onClick={() => setTab('history')}>
          {t('curate.history')}
        </button>
      </div>
      {tab === 'plan' ? (
        <div role="tabpanel">
          {plan.error && <ErrorNotice error={plan.error} onRetry={() => void plan.refetch()} />}
          {reject.error && <ErrorNotice error={reject.error} />}
          {plan.data && (
            <p className="muted" data-testid="plan-info">
              {plan.data.computedAt ? t('curate.computedAt', { at: formatDate(plan.data.computedAt, lang), n: plan.data.skills_loaded }) : t('curate.notComputed')}
            </p>
          )}
          {plan.data && plan.data.computedAt && groups.length === 0 && <p className="empty">{t('curate.noProposals')}</p>}
          {groups.map((g) => (
            <section key={g.kind} className="proposal-group" data-testid={`group-${g.kind}`}>
              <h2>
                {t(`kind.${g.kind}`)} <span className="muted">({g.proposals.length})</span>
              </h2>
              {g.proposals.map((p) => (
                <article key={p.id} className="proposal" data-testid="proposal">
                  <div className="proposal-head">
                    <Badge tone="accent">{t(`kind.${p.kind}`)}</Badge>
                    <span className="strong ellipsis">{p.members.map((m) => m.title || m.skill_id).join(' + ')}</span>
                    <div className="spacer" />
                    <Badge tone={p.status === 'applied' ? 'ok' : p.status === 'rejected' || p.status === 'undone' ? 'muted' : 'info'}>{t(`proposal.${p.status ?? 'pending'}`)}</Badge>
                  </div>
                  <p className="cell-sub">{p.reason}</p>
                  <div className="evidence">
                    <span>
                      {t('curate.score')}: <strong>{p.score.toFixed(3)}</strong>
                    </span>
                    {typeof p.evidence.similarity === 'number' && (
                      <span>
                        {t('curate.similarity')}: <strong>{p.evidence.similarity.toFixed(3)}</strong>
                      </span>
                    )}
                    {p.evidence.shared_terms && p.evidence.shared_terms.length > 0 && (
                      <span className="terms">
                        {t('curate.sharedTerms')}:{' '}
                        {p.evidence.shared_terms.slice(0, 12).map((term) => (
                          <code key={term} className="term">
                            {term}
                          </code>
                        ))}
                      </span>
                    )}
                    {typeof p.evidence.task === 'string' && <span data-testid="proposal-task">{t('curate.fromTask', { task: p.evidence.task })}</span>}
                    {typeof p.evidence.tool === 'string' && <span data-testid="proposal-tool">{t('curate.agentTool', { tool: p.evidence.tool })}</span>}
                    {p.author && (
                      <span className="muted" data-testid="proposal-author">
                        {t('curate.by', { who: p.author })}
                      </span>
                    )}
                  </div>
                  {Array.isArray(p.evidence.changes) && p.evidence.changes.length > 0 && (
                    <ul className="cell-sub proposal-changes">
                      {p.evidence.changes.slice(0, 8).map((c, i) => (
                        <li key={i}>{String(c)}</li>
                      ))}
                    </ul>
                  )}
                  {(p.status ?? 'pending') === 'pending' && (
                    <div className="proposal-actions">
                      <button type="button" className="btn btn-primary" data-testid="proposal-review" onClick={() => setReviewing(p)}>
                        {t('curate.review')}
                      </button>
                      <button type="button" className="btn" data-testid="proposal-reject" disabled={reject.isPending} onClick={() => reject.mutate(p.id)}>
                        {t('curate.reject')}
                      </button>
                    </div>
                  )}
                </article>
              ))}
            </section>
          ))}
        </div>
      ) : (
        <div role="tabpanel" data-testid="journal">
          {journal.error && <ErrorNotice error={journal.error} onRetry={() => void journal.refetch()} />}
          {undo.error && <ErrorNotice error={undo.error} />}
          {journal.data && journal.data.length === 0 && <p className="empty">{t('curate.noHistory')}</p>}
          <ul className="journal">
            {[...(journal.data ?? [])].reverse().map((e) => (
              <li key={e.id} className="journal-entry" data-testid="journal-entry">
                <Badge tone="accent">{t(`kind.${e.kind}`)}</Badge>
                <span>{formatDate(e.at, lang)}</span>
                <span className="muted">{t('curate.by', { who: e.by })}</span>
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
      {reviewing && <ReviewDialog library={lib} proposal={reviewing} onClose={() => setReviewing(null)} onDone={() => { setReviewing(null); refresh() }} />}
    </section>
  )
}

/** Before → after of each file; the right side is editable ("edit, then accept"). */
function ReviewDialog(props: { library: string; proposal: Proposal; onClose: () => void; onDone: () => void }): React.JSX.Element {
  const { t } = useI18n()
  const api = useApi()
  const { proposal } = props
  const [index, setIndex] = useState(0)
  const [edits, setEdits] = useState<Record<string, string>>({})
  const change: FileChange | undefined = proposal.changes[index]
  const accept = useMutation({
    mutationFn: () => {
      const edited = Object.keys(edits).length > 0 ? proposal.changes.map((c) => (c.path in edits ? { ...c, after: edits[c.path]! } : c)) : undefined
      return api.call('curate.accept', { library: props.library, proposalId: proposal.id, edited })
    },
    onSuccess: props.onDone
  })
  const reject = useMutation({ mutationFn: () => api.call('curate.reject', { library: props.library, proposalId: proposal.id }), onSuccess: props.onDone })
  const describe = (c: FileChange): string => (c.before === null ? t('curate.fileNew') : c.after === null ? t('curate.fileRemoved') : t('curate.fileChanged'))
  return (
    <Dialog title={`${t(`kind.${proposal.kind}`)}: ${proposal.members.map((m) => m.title || m.skill_id).join(' + ')}`} onClose={props.onClose} wide testId="review-dialog">
      <div className="tabs" role="tablist" aria-label={t('curate.files')}>
        {proposal.changes.map((c, i) => (
          <button key={c.path} type="button" role="tab" aria-selected={i === index} className="tab" onClick={() => setIndex(i)} title={c.path}>
            <span className="ellipsis">{c.path}</span> <span className="muted">({describe(c)})</span>
            {c.path in edits ? ' ✎' : ''}
          </button>
        ))}
      </div>
      {change && (
        <>
          <div className="diff-legend">
            <span>{t('curate.before')}</span>
            <span>{change.after === null ? t('curate.fileRemoved') : t('curate.afterEditable')}</span>
          </div>
          <DiffView
            key={change.path}
            original={change.before ?? ''}
            modified={edits[change.path] ?? change.after ?? ''}
            onModifiedChange={change.after === null ? undefined : (text) => setEdits((prev) => ({ ...prev, [change.path]: text }))}
            ariaLabel={change.path}
            height="52vh"
          />
        </>
      )}
      {(accept.error ?? reject.error) && <ErrorNotice error={accept.error ?? reject.error} />}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={props.onClose}>
          {t('common.cancel')}
        </button>
        <button type="button" className="btn" data-testid="review-reject" disabled={reject.isPending || accept.isPending} onClick={() => reject.mutate()}>
          {t('curate.reject')}
        </button>
        <button type="button" className="btn btn-primary" data-testid="review-accept" disabled={accept.isPending || reject.isPending} onClick={() => accept.mutate()}>
          {Object.keys(edits).length > 0 ? t('curate.acceptEdited') : t('curate.accept')}
        </button>
      </div>
    </Dialog>
  )
}

/**
 * The Overview's audit (issue 38): how many high-risk findings the library holds (a card), and the skills with
 * findings, most severe first, each opening in the editor where its side panel lists them.
 */
import { useQuery } from '@tanstack/react-query'
import { useApi } from '../../api/context'
import { queryKeys } from '../../api/query-keys'
import { useAppState } from '../../app-state'
import { ErrorNotice } from '../../components/ErrorNotice'
import { useI18n } from '../../i18n/i18n'

export function useLibraryAudit(library: string) {
  const api = useApi()
  return useQuery({ queryKey: queryKeys.audit(library), queryFn: () => api.call('audit.library', { library }) })
}

/** The card's number: high findings (red when there are any). */
export function AuditCard(props: { library: string }): React.JSX.Element {
  const { t } = useI18n()
  const audit = useLibraryAudit(props.library)
  const high = audit.data?.counts.high
  return (
    <button
      type="button"
      className="card card-button"
      data-testid="overview-audit-card"
      onClick={() => {
        // the panel below lists them: scroll to it and give it the focus
        const panel = document.getElementById('overview-audit')
        panel?.scrollIntoView({ block: 'nearest' })
        panel?.focus()
      }}
    >
      <span className={high ? 'card-value bad-text' : 'card-value'}>{high ?? '…'}</span>
      <span className="card-label">{t('overview.audit.card')}</span>
    </button>
  )
}

/** Counts by severity and the skills with findings. */
export function LibraryAuditPanel(props: { library: string }): React.JSX.Element {
  const { t } = useI18n()
  const { navigate } = useAppState()
  const audit = useLibraryAudit(props.library)
  const data = audit.data
  const total = data ? data.counts.high + data.counts.medium + data.counts.low : 0
  return (
    <section className="panel" id="overview-audit" tabIndex={-1} data-testid="overview-audit" aria-labelledby="overview-audit-title">
      <h2 id="overview-audit-title">{t('overview.audit.title')}</h2>
      {audit.isPending && <p className="muted small">{t('audit.checking')}</p>}
      {audit.error && <ErrorNotice error={audit.error} action="failed.audit" onRetry={() => void audit.refetch()} />}
      {data && total === 0 && <p className="muted small">{t('overview.audit.clean', { skills: data.skills })}</p>}
      {data && total > 0 && (
        <>
          <p className="small" data-testid="overview-audit-counts">
            <span className={data.counts.high > 0 ? 'bad-text strong' : 'strong'}>{t('overview.audit.body', data.counts)}</span> <span className="muted">{t('overview.audit.of', { skills: data.skills })}</span>
          </p>
          <p className="muted small">{t('overview.audit.flagged')}</p>
          <ul className="recent" data-testid="overview-audit-flagged">
            {data.flagged.slice(0, 10).map((f) => (
              <li key={f.path}>
                {f.skill_id ? (
                  <button type="button" className="link" onClick={() => navigate({ screen: 'editor', library: props.library, skillId: f.skill_id! })} aria-label={t('overview.audit.open', { name: f.name, count: t('audit.count', f) })}>
                    {f.name}
                  </button>
                ) : (
                  <span>{f.name}</span>
                )}{' '}
                <span className={f.high > 0 ? 'bad-text small' : 'muted small'}>{t('audit.count', f)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}

/**
 * The audit's findings in the app (issue 38): a list (Install dialog, update proposals, the skill's side panel),
 * the side panel itself, and the Overview's count. Rules are named in the app's language; the excerpt shows the
 * line as the agent reads it (hidden characters as ⟦…⟧).
 */
import { useQuery } from '@tanstack/react-query'
import type { AuditFindingInfo, AuditSeverityInfo } from '../../../shared/api-audit'
import { useApi } from '../../api/context'
import { queryKeys } from '../../api/query-keys'
import { Badge } from '../../components/Badge'
import { ErrorNotice } from '../../components/ErrorNotice'
import { useI18n } from '../../i18n/i18n'
import type { MessageKey } from '../../i18n/messages'
import { findingDetail, RULE_KEYS } from './audit-text'

const TONE: Record<AuditSeverityInfo, 'bad' | 'warn' | 'muted'> = { high: 'bad', medium: 'warn', low: 'muted' }

/** One severity badge ("High" / "高"). */
export function SeverityBadge(props: { severity: AuditSeverityInfo }): React.JSX.Element {
  const { t } = useI18n()
  return <Badge tone={TONE[props.severity]}>{t(`audit.severity.${props.severity}` as MessageKey)}</Badge>
}

/** Findings, most severe first, each with its rule, place, what it means and the line as the agent reads it. */
export function FindingList(props: { findings: readonly AuditFindingInfo[]; testId?: string }): React.JSX.Element {
  const { t, lang } = useI18n()
  return (
    <ul className="audit-findings" data-testid={props.testId ?? 'audit-findings'}>
      {props.findings.map((f, i) => {
        const detail = findingDetail(f, lang, t)
        return (
        <li key={`${f.file}:${f.line}:${f.rule}:${i}`} className={`audit-finding audit-${f.severity}`} data-testid="audit-finding" data-rule={f.rule} data-severity={f.severity}>
          <div className="audit-finding-head">
            <SeverityBadge severity={f.severity} /> <span className="strong">{RULE_KEYS[f.rule] ? t(RULE_KEYS[f.rule]!) : f.rule}</span>{' '}
            <span className="muted small break">{f.line > 0 ? t('audit.where', { file: f.file, line: f.line }) : t('audit.whereFile', { file: f.file })}</span>
          </div>
          {detail && <p className="small audit-message">{detail}</p>}
          {f.excerpt && <code className="audit-excerpt">{f.excerpt}</code>}
        </li>
        )
      })}
    </ul>
  )
}

/** "2 high · 1 medium · 0 low" for a list of findings. */
export function countOf(findings: readonly { severity: AuditSeverityInfo }[]): Record<AuditSeverityInfo, number> {
  const out = { high: 0, medium: 0, low: 0 }
  for (const f of findings) out[f.severity]++
  return out
}

/** The editor's side panel section: what the audit finds in this skill's files (read again after each save). */
export function SkillAuditPanel(props: { library: string; skillId: string; hash: string }): React.JSX.Element {
  const { t } = useI18n()
  const api = useApi()
  const query = useQuery({
    queryKey: queryKeys.skillAudit(props.library, props.skillId, props.hash),
    queryFn: () => api.call('audit.skill', { library: props.library, skillId: props.skillId })
  })
  const findings = query.data?.findings ?? []
  const counts = countOf(findings)
  return (
    <section className="panel" data-testid="skill-audit" aria-labelledby="skill-audit-title">
      <h2 id="skill-audit-title">
        {t('audit.title')} {query.data && findings.length > 0 && <span className="muted small">{t('audit.count', counts)}</span>}
      </h2>
      {query.isPending && <p className="muted small">{t('audit.checking')}</p>}
      {query.error && <ErrorNotice error={query.error} action="failed.audit" />}
      {query.data && findings.length === 0 && (
        <p className="muted small" data-testid="skill-audit-none">
          {t('audit.none')}
        </p>
      )}
      {findings.length > 0 && <FindingList findings={findings} />}
      {findings.some((f) => f.rule === 'hidden-text') && <p className="muted small">{t('audit.hiddenInEditor')}</p>}
    </section>
  )
}

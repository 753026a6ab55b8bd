/**
 * An update proposal's audit (issue 38): an update that adds a high finding is marked high risk, with what it adds;
 * every finding of the upstream version is one click away. Reads `evidence.audit` as `update` writes it.
 */
import type { AuditFindingInfo } from '../../../shared/api-audit'
import type { Proposal } from '../../../shared/types'
import { Badge } from '../../components/Badge'
import { useI18n } from '../../i18n/i18n'
import { countOf, FindingList } from './AuditFindings'

const SEVERITIES = new Set(['high', 'medium', 'low'])

function findingsOf(v: unknown): AuditFindingInfo[] {
  if (!Array.isArray(v)) return []
  return v.filter((f): f is AuditFindingInfo => typeof f === 'object' && f !== null && typeof (f as AuditFindingInfo).rule === 'string' && SEVERITIES.has((f as AuditFindingInfo).severity))
}

/** The proposal's audit evidence, or null when it has none. Pure. */
export function updateAudit(p: Proposal): { highRisk: boolean; added: AuditFindingInfo[]; findings: AuditFindingInfo[] } | null {
  if (p.kind !== 'update') return null
  const a = p.evidence.audit
  if (typeof a !== 'object' || a === null) return null
  const r = a as Record<string, unknown>
  return { highRisk: r.high_risk === true, added: findingsOf(r.added_high), findings: findingsOf(r.findings) }
}

/** "High risk" for the proposal's head, when the update adds a high finding. */
export function HighRiskBadge(props: { proposal: Proposal }): React.JSX.Element | null {
  const { t } = useI18n()
  return updateAudit(props.proposal)?.highRisk ? (
    <Badge tone="bad" testId="proposal-high-risk">
      ⚠ {t('audit.highRisk')}
    </Badge>
  ) : null
}

/** What the update adds that is high, and the audit of the upstream version. */
export function UpdateAudit(props: { proposal: Proposal }): React.JSX.Element | null {
  const { t } = useI18n()
  const audit = updateAudit(props.proposal)
  if (!audit || (audit.findings.length === 0 && audit.added.length === 0)) return null
  return (
    <div className="update-audit" data-testid="update-audit">
      {audit.highRisk && (
        <>
          <p className="bad-text strong small">{t('audit.updateAdds', { n: audit.added.length })}</p>
          <FindingList findings={audit.added} testId="update-audit-added" />
        </>
      )}
      {audit.findings.length > 0 && (
        <details>
          <summary className="small">
            {t('audit.updateFindings')} — {t('audit.count', countOf(audit.findings))}
          </summary>
          <FindingList findings={audit.findings} testId="update-audit-all" />
        </details>
      )}
    </div>
  )
}

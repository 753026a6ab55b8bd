/**
 * The Install dialog's skills held back by the audit (issue 38): each with its findings, and a choice, per skill, to
 * install it anyway after reading them. The choice goes to the same install with `allowRisk`, which records the
 * findings and who allowed them in the skill's provenance and in skills.lock. The core's hint on how to take it
 * anyway (held[].hint, install.held_*) is worded for the app by its code (held-hint) and describes the skill's choice.
 */
import { useId, useState } from 'react'
import type { HeldSkillInfo, InstallResult } from '../../../shared/api'
import { ErrorNotice } from '../../components/ErrorNotice'
import { useI18n } from '../../i18n/i18n'
import { countOf, FindingList } from '../audit/AuditFindings'
import { heldHintText } from './held-hint'

export function HeldSkills(props: { held: HeldSkillInfo[]; pending: boolean; done?: InstallResult; error: unknown; onAllow: (names: string[]) => void }): React.JSX.Element {
  const { t, lang } = useI18n()
  const hintId = useId()
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set())
  const installed = new Set((props.done?.installed ?? []).map((s) => s.name))
  const waiting = props.held.filter((h) => !installed.has(h.name))
  return (
    <div className="install-held" data-testid="install-held">
      <p className="strong bad-text">{t('install.heldTitle', { n: waiting.length })}</p>
      <p className="muted small">{t('install.heldLead')}</p>
      {props.held.map((h, i) => (
        <div key={h.name} className="install-held-skill" data-testid="install-held-skill">
          <p>
            <span className="strong">{h.name}</span> <span className="muted small">{t('audit.count', countOf(h.findings))}</span>
          </p>
          <FindingList findings={h.findings} />
          {h.hint && !installed.has(h.name) && (
            <p className="muted small" id={`${hintId}-${i}`} data-testid="install-held-hint">
              {heldHintText(h, t, lang)}
            </p>
          )}
          {installed.has(h.name) ? (
            <p className="ok-text small" data-testid="install-allowed">
              {t('install.installed', { n: 1 })}
            </p>
          ) : (
            <label className="checkbox-row">
              <input
                type="checkbox"
                checked={chosen.has(h.name)}
                aria-describedby={h.hint ? `${hintId}-${i}` : undefined}
                onChange={(e) => setChosen((prev) => (e.target.checked ? new Set([...prev, h.name]) : new Set([...prev].filter((n) => n !== h.name))))}
                data-testid="install-allow"
              />{' '}
              {t('install.allowOne', { name: h.name })}
            </label>
          )}
        </div>
      ))}
      {waiting.length > 0 && (
        <div className="toolbar">
          <button type="button" className="btn" disabled={props.pending || ![...chosen].some((n) => !installed.has(n))} onClick={() => props.onAllow([...chosen].filter((n) => !installed.has(n)))} data-testid="install-allow-run">
            {props.pending ? t('install.running') : t('install.allowRun')}
          </button>
          <span className="muted small">{t('install.allowNote')}</span>
        </div>
      )}
      {props.error != null && <ErrorNotice error={props.error} action="failed.install" />}
    </div>
  )
}

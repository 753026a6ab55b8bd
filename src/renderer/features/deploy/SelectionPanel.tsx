import { useState } from 'react'
import type { DeployConfigInfo, DeployResult } from '../../../shared/api-deploy'
import { ErrorNotice } from '../../components/ErrorNotice'
import { useI18n } from '../../i18n/i18n'
import { DeployName } from './DeployName'

/** Which profile's selection the preview and the deploy use ('' = every active skill). */
export function ProfilePicker(props: { config: DeployConfigInfo | undefined; value: string; onChange: (name: string) => void }): React.JSX.Element {
  const { t } = useI18n()
  const names = Object.keys(props.config?.profiles ?? {})
  const chosen = props.value ? props.config?.profiles[props.value] : undefined
  return (
    <div className="deploy-profile-pick">
      <label>
        <span>{t('deploySel.profile')}</span>
        <select className="input" value={props.value} onChange={(e) => props.onChange(e.target.value)} data-testid="deploy-profile">
          <option value="">{t('deploySel.allSkills')}</option>
          {names.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      {chosen && <span className="muted small">{t('deploySel.profileTargets', { targets: chosen.targets.join(', ') })}</span>}
    </div>
  )
}

/** Suggestions shown before "Show all": far over the budget (a large library) they are hundreds, above the table. */
export const SUGGEST_SHOWN = 10

/** Skills disabled for the target, each with Enable; over the budget, what to disable (least used first). */
export function DisabledAndBudget(props: { result: DeployResult; busy: boolean; onSet: (skills: string[], enabled: boolean) => void }): React.JSX.Element | null {
  const { t } = useI18n()
  const [all, setAll] = useState(false)
  const off = props.result.disabled ?? []
  const suggest = props.result.budget.suggest ?? []
  const shown = all ? suggest : suggest.slice(0, SUGGEST_SHOWN)
  if (off.length === 0 && suggest.length === 0) return null
  return (
    <div className="deploy-selection panel" data-testid="deploy-selection">
      {suggest.length > 0 && (
        <div className="deploy-suggest" data-testid="deploy-suggest">
          <p className="deploy-suggest-title">{t('deploySel.suggestTitle')}</p>
          <ul>
            {shown.map((s) => (
              <li key={s.name}>
                <DeployName name={s.name} className="strong" /> <span className="muted small">{t('deploySel.suggestRow', { uses: s.uses, chars: s.chars })}</span>
              </li>
            ))}
          </ul>
          {shown.length < suggest.length && (
            <p className="deploy-suggest-more">
              <button type="button" className="link" onClick={() => setAll(true)} data-testid="deploy-suggest-all">
                {t('deploySel.showAll', { n: suggest.length, more: suggest.length - shown.length })}
              </button>
            </p>
          )}
          <button type="button" className="btn btn-small" disabled={props.busy} onClick={() => props.onSet(suggest.map((s) => s.name), false)} data-testid="deploy-suggest-disable">
            {t('deploySel.disableThese', { n: suggest.length })}
          </button>
        </div>
      )}
      {off.length > 0 && (
        <div data-testid="deploy-disabled">
          <p className="deploy-suggest-title">{t('deploySel.disabledTitle')}</p>
          <ul className="deploy-disabled-list">
            {off.map((name) => (
              <li key={name}>
                <DeployName name={name} />
                <button type="button" className="btn btn-small" disabled={props.busy} onClick={() => props.onSet([name], true)} aria-label={t('deploySel.enableOne', { name })} data-testid={`deploy-enable-${name}`}>
                  {t('deploySel.enable')}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  )
}

const splitList = (text: string): string[] =>
  text
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean)

/** The library's profiles, and a form to set one (kept in deploy-profiles.json, shared with the team). */
export function ProfilesEditor(props: { config: DeployConfigInfo | undefined; busy: boolean; error: unknown; onSave: (name: string, profile: { targets: string[]; skills: string[]; except: string[] } | null) => void }): React.JSX.Element {
  const { t } = useI18n()
  const [name, setName] = useState('')
  const [targets, setTargets] = useState('')
  const [skills, setSkills] = useState('')
  const [except, setExcept] = useState('')
  const profiles = Object.entries(props.config?.profiles ?? {})
  const edit = (n: string): void => {
    const p = props.config!.profiles[n]!
    setName(n)
    setTargets(p.targets.join(', '))
    setSkills(p.skills.join(', '))
    setExcept(p.except.join(', '))
  }
  return (
    <details className="deploy-profiles panel" data-testid="deploy-profiles">
      <summary>{t('deploySel.profilesTitle', { n: profiles.length })}</summary>
      <p className="muted small">{t('deploySel.profilesLead')}</p>
      {profiles.length > 0 && (
        <ul className="deploy-profile-list">
          {profiles.map(([n, p]) => (
            <li key={n}>
              <button type="button" className="link" onClick={() => edit(n)} aria-label={t('deploySel.editOne', { name: n })}>
                {n}
              </button>{' '}
              <span className="muted small">
                → {p.targets.join(', ')} · {p.skills.length > 0 ? p.skills.join(', ') : t('deploySel.everything')}
                {p.except.length > 0 && ` · ${t('deploySel.except')} ${p.except.join(', ')}`}
              </span>
            </li>
          ))}
        </ul>
      )}
      <form
        className="deploy-profile-form"
        onSubmit={(e) => {
          e.preventDefault()
          props.onSave(name.trim(), { targets: splitList(targets), skills: splitList(skills), except: splitList(except) })
        }}
      >
        <label>
          <span>{t('deploySel.name')}</span>
          <input className="input" value={name} onChange={(e) => setName(e.target.value)} placeholder="backend" data-testid="profile-name" spellCheck={false} />
        </label>
        <label>
          <span>{t('deploySel.targets')}</span>
          <input className="input" value={targets} onChange={(e) => setTargets(e.target.value)} placeholder="claude-project:~/api, codex" data-testid="profile-targets" spellCheck={false} />
        </label>
        <label>
          <span>{t('deploySel.skills')}</span>
          <input className="input" value={skills} onChange={(e) => setSkills(e.target.value)} placeholder="tag:backend, sql-tuning, collection:ops" data-testid="profile-skills" spellCheck={false} />
        </label>
        <label>
          <span>{t('deploySel.exceptLabel')}</span>
          <input className="input" value={except} onChange={(e) => setExcept(e.target.value)} placeholder="tag:experimental" data-testid="profile-except" spellCheck={false} />
        </label>
        <div className="toolbar">
          <button type="submit" className="btn" disabled={props.busy || name.trim() === '' || splitList(targets).length === 0} data-testid="profile-save">
            {t('deploySel.save')}
          </button>
          {props.config?.profiles[name.trim()] && (
            <button type="button" className="btn" disabled={props.busy} onClick={() => props.onSave(name.trim(), null)} data-testid="profile-delete">
              {t('deploySel.delete')}
            </button>
          )}
        </div>
      </form>
      {props.error ? <ErrorNotice error={props.error} action="failed.saveProfile" /> : null}
    </details>
  )
}

import { useEffect, useRef, useState } from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useApi } from '../../api/context'
import { queryKeys } from '../../api/query-keys'
import { Dialog } from '../../components/Dialog'
import { ErrorNotice } from '../../components/ErrorNotice'
import { useI18n } from '../../i18n/i18n'
import { translateMessage } from '../../i18n/messages-errors'
import { HeldSkills } from './HeldSkills'
import '../../styles/deploy.css'

/** "Install from git…": a button that opens the install dialog for the selected library. */
export function InstallFromGitButton(props: { library: string }): React.JSX.Element {
  const { t } = useI18n()
  const [open, setOpen] = useState(false)
  return (
    <>
      <button type="button" className="btn" onClick={() => setOpen(true)} data-testid="install-open">
        {t('install.open')}
      </button>
      {open && <InstallDialog library={props.library} onClose={() => setOpen(false)} />}
    </>
  )
}

/** Source, ref, folder and skill names; then what was installed and what was not, and why. */
export function InstallDialog(props: { library: string; onClose: () => void }): React.JSX.Element {
  const { t, lang } = useI18n()
  const api = useApi()
  const client = useQueryClient()
  const [source, setSource] = useState('')
  const [ref, setRef] = useState('')
  const [subdir, setSubdir] = useState('')
  const [names, setNames] = useState('')
  // the same source again, with only the held skills a person chose after reading their findings
  const request = (allow?: string[]): Parameters<typeof api.call<'sources.install'>>[1] => ({
    library: props.library,
    source: source.trim(),
    ...(ref.trim() ? { ref: ref.trim() } : {}),
    ...(subdir.trim() ? { path: subdir.trim() } : {}),
    ...(allow ? { skills: allow, allowRisk: allow } : names.trim() ? { skills: names.split(',').map((n) => n.trim()).filter(Boolean) } : {})
  })
  const install = useMutation({
    mutationFn: () => api.call('sources.install', request()),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.library(props.library) })
  })
  const allowRisk = useMutation({
    mutationFn: (allow: string[]) => api.call('sources.install', request(allow)),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.library(props.library) })
  })
  const result = install.data
  // the Install button is disabled while it runs: the answer takes the keyboard focus, so Esc and Tab keep working
  const answer = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (result || install.error) answer.current?.focus()
  }, [result, install.error])
  return (
    <Dialog title={t('install.title')} onClose={props.onClose} testId="install-dialog">
      <p className="muted small">{t('install.help')}</p>
      <form
        className="install-form"
        onSubmit={(e) => {
          e.preventDefault()
          if (source.trim() && !install.isPending) {
            allowRisk.reset()
            install.mutate()
          }
        }}
      >
        <label>
          {t('install.source')}
          <input className="input" value={source} onChange={(e) => setSource(e.target.value)} placeholder={t('install.sourceHint')} spellCheck={false} data-testid="install-source" data-autofocus />
        </label>
        <label>
          {t('install.ref')}
          <input className="input" value={ref} onChange={(e) => setRef(e.target.value)} spellCheck={false} data-testid="install-ref" />
        </label>
        <label>
          {t('install.path')}
          <input className="input" value={subdir} onChange={(e) => setSubdir(e.target.value)} spellCheck={false} data-testid="install-path" />
        </label>
        <label>
          {t('install.skills')}
          <input className="input" value={names} onChange={(e) => setNames(e.target.value)} spellCheck={false} data-testid="install-skills" />
        </label>
        {install.isPending && (
          <p className="muted" role="status" aria-live="polite">
            <span className="spinner" aria-hidden="true" /> {t('install.running')}
          </p>
        )}
        <div ref={answer} tabIndex={-1} className="install-answer">
          {install.error && <ErrorNotice error={install.error} action="failed.install" />}
          {result && (
            <div role="status" data-testid="install-result">
              {result.installed.length === 0 && (result.held ?? []).length === 0 && <p>{t('install.nothing')}</p>}
              {result.installed.length > 0 && (
                <>
                  <p className="ok-text strong">{t('install.installed', { n: result.installed.length })}</p>
                  <ul className="install-result">
                    {result.installed.map((s) => (
                      <li key={s.path} data-testid="install-installed">
                        <span className="strong">{s.name}</span> <code>{s.path}</code> <span className="muted">@{s.source.commit.slice(0, 12)}</span>
                      </li>
                    ))}
                  </ul>
                </>
              )}
              {(result.held ?? []).length > 0 && <HeldSkills held={result.held!} pending={allowRisk.isPending} done={allowRisk.data} error={allowRisk.error} onAllow={(chosen) => allowRisk.mutate(chosen)} />}
              {result.skipped.length > 0 && (
                <>
                  <p className="strong">{t('install.skipped', { n: result.skipped.length })}</p>
                  <ul className="install-result">
                    {result.skipped.map((s) => (
                      <li key={`${s.name}:${s.reason}`} data-testid="install-skipped">
                        <span className="strong">{s.name}</span>: {translateMessage(s, s.reason, lang)}
                      </li>
                    ))}
                  </ul>
                </>
              )}
            </div>
          )}
        </div>
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={props.onClose}>
            {t('install.close')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={!source.trim() || install.isPending} data-testid="install-run">
            {install.isPending ? t('install.running') : t('install.run')}
          </button>
        </div>
      </form>
    </Dialog>
  )
}

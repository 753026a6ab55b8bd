import { useAppState } from '../app-state'
import { useI18n } from '../i18n/i18n'
import type { MessageKey } from '../i18n/messages'

/**
 * A library screen with no library selected: what to do, and the one button that leads there (Settings adds a data
 * root or opens a folder of skills). The button sits in the notice, at its own width, not across the screen.
 */
export function NoLibrary(props: { title: MessageKey; titleId?: string; text?: MessageKey }): React.JSX.Element {
  const { t } = useI18n()
  const { navigate } = useAppState()
  return (
    <section className="screen" aria-labelledby={props.titleId}>
      <h1 id={props.titleId}>{t(props.title)}</h1>
      <div className="empty" data-testid="no-library">
        <p>{t(props.text ?? 'shell.noLibraryHelp')}</p>
        <button type="button" className="btn btn-primary" data-testid="no-library-settings" onClick={() => navigate({ screen: 'settings' })}>
          {t('rootProblem.settings')}
        </button>
      </div>
    </section>
  )
}

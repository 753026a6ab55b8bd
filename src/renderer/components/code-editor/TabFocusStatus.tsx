import { useT } from '../../i18n/i18n'
import { isMac } from './tab-focus'

/** The editor's status line: whether Tab moves focus or inserts a tab, with the keys that switch it. */
export function TabFocusStatus(props: { on: boolean; onToggle: () => void }): React.JSX.Element {
  const t = useT()
  const keys = isMac() ? 'Ctrl+Shift+M' : 'Ctrl+M'
  return (
    <div className="code-editor-status" data-testid="editor-status">
      <button type="button" className="link" data-testid="tab-focus-toggle" aria-pressed={props.on} onClick={props.onToggle} title={t('editor.tabFocusHint')}>
        {t(props.on ? 'editor.tabMovesFocus' : 'editor.tabInserts', { keys })}
      </button>
      <span className="muted">{t('editor.escTabHint')}</span>
    </div>
  )
}

import { ApiError } from '../../shared/api'
import { useT } from '../i18n/i18n'
import type { Translate } from '../i18n/i18n'

/** Explains an error in words a user understands (the technical message stays visible below). */
export function describeError(t: Translate, error: unknown): { title: string; detail: string } {
  const detail = error instanceof Error ? error.message : String(error)
  const code = error instanceof ApiError ? error.code : ''
  switch (code) {
    case 'conflict':
      return { title: t('error.conflict'), detail }
    case 'not_found':
      return { title: t('error.notFound'), detail }
    case 'bad_request':
      return { title: t('error.badRequest'), detail }
    case 'network':
      return { title: t('error.network'), detail }
    case 'unavailable':
      return { title: t('error.unavailable'), detail }
    case 'unauthorized':
      return { title: t('error.unauthorized'), detail }
    default:
      return { title: t('error.generic'), detail }
  }
}

/** An inline error panel with an optional retry button. */
export function ErrorNotice(props: { error: unknown; onRetry?: () => void }): React.JSX.Element {
  const t = useT()
  const { title, detail } = describeError(t, props.error)
  return (
    <div className="error-notice" role="alert" data-testid="error-notice">
      <strong>{title}</strong>
      <span className="error-detail">{detail}</span>
      {props.onRetry && (
        <button type="button" className="btn" onClick={props.onRetry}>
          {t('action.retry')}
        </button>
      )}
    </div>
  )
}

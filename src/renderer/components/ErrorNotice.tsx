import { ApiError } from '../../shared/api-error'
import { useI18n } from '../i18n/i18n'
import type { Translate } from '../i18n/i18n'
import type { MessageKey } from '../i18n/messages'
import { translateMessage, translateText } from '../i18n/messages-errors'

/** A hint for the error's kind, when there is something to add to the message itself. */
function hintOf(t: Translate, code: string): string | null {
  switch (code) {
    case 'conflict':
      return t('error.conflict')
    case 'not_found':
      return t('error.notFound')
    case 'network':
      return t('error.network')
    case 'unavailable':
      return t('error.unavailable')
    case 'unauthorized':
      return t('error.unauthorized')
    case 'locked':
      return t('error.locked')
    default:
      return null
  }
}

/** Says what failed ("Saving the skill failed"), why in the user's language, and a hint for the kind of error. */
export function describeError(t: Translate, lang: 'en' | 'zh', error: unknown, action: MessageKey): { title: string; hint: string | null; detail: string } {
  const message = error instanceof Error ? error.message : String(error)
  const code = error instanceof ApiError ? error.code : ''
  // by the error's code when it has one (error-codes.ts); an error without one may still be a message of the table
  const detail = error instanceof ApiError && error.messageCode ? translateMessage(error, message, lang) : translateText(message, lang)
  return { title: t('error.failed', { what: t(action) }), hint: hintOf(t, code), detail }
}

/** An inline error panel where the failure happened, with an optional retry button. */
export function ErrorNotice(props: { error: unknown; action: MessageKey; onRetry?: () => void }): React.JSX.Element {
  const { t, lang } = useI18n()
  const { title, hint, detail } = describeError(t, lang, props.error, props.action)
  return (
    <div className="error-notice" role="alert" data-testid="error-notice">
      <strong>{title}</strong>
      {hint && <span>{hint}</span>}
      <span className="error-detail">{detail}</span>
      {props.onRetry && (
        <button type="button" className="btn" onClick={props.onRetry}>
          {t('action.retry')}
        </button>
      )}
    </div>
  )
}

import { useEffect, useRef } from 'react'
import { useI18n } from '../../i18n/i18n'
import { DEPLOY_PAGE } from './deploy-view'

/**
 * Under a long Deploy table: how many rows are shown (announced), "Show N more" and "Show all N", or once all are
 * shown "Show the first N only". The button pressed may go away with the press; the focus then moves to the one that
 * takes its place, so a keyboard user never lands on the page's start.
 */
export function MoreRows(props: { shown: number; total: number; onShow: (n: number) => void }): React.JSX.Element | null {
  const { t } = useI18n()
  const more = useRef<HTMLButtonElement>(null)
  const fewer = useRef<HTMLButtonElement>(null)
  const pressed = useRef(false)
  const { shown, total } = props
  useEffect(() => {
    if (!pressed.current) return
    pressed.current = false
    ;(more.current ?? fewer.current)?.focus()
  }, [shown])
  if (total <= DEPLOY_PAGE) return null
  const show = (n: number): void => {
    pressed.current = true
    props.onShow(n)
  }
  return (
    <div className="deploy-more" data-testid="deploy-more">
      <span role="status">{shown < total ? t('deploy.showing', { shown, total }) : t('deploy.showingAll', { total })}</span>
      {shown < total ? (
        <>
          <button type="button" ref={more} className="btn btn-small" onClick={() => show(shown + DEPLOY_PAGE)} data-testid="deploy-show-more">
            {t('deploy.showMore', { n: Math.min(DEPLOY_PAGE, total - shown) })}
          </button>
          <button type="button" className="btn btn-small" onClick={() => show(total)} data-testid="deploy-show-all">
            {t('deploy.showAll', { total })}
          </button>
        </>
      ) : (
        <button type="button" ref={fewer} className="btn btn-small" onClick={() => show(DEPLOY_PAGE)} data-testid="deploy-show-fewer">
          {t('deploy.showFewer', { n: DEPLOY_PAGE })}
        </button>
      )}
    </div>
  )
}

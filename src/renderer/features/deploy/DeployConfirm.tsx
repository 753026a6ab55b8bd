import { useId } from 'react'
import type { DeployResult } from '../../../shared/api-deploy'
import { Dialog } from '../../components/Dialog'
import { useI18n } from '../../i18n/i18n'
import { confirmCounts, targetLabel } from './deploy-view'

/**
 * The step between Deploy and the write: per agent folder, what the dry run says will be written new, updated,
 * removed and left alone, where, that it can be undone and where; a warning when the library is the bundled sample
 * (demo skills about to go into a real agent's folder). A modal dialog (focus in, Esc cancels, focus back).
 */
export function DeployConfirm(props: { plans: DeployResult[]; sample: boolean; checking: boolean; nothing?: boolean; onConfirm: () => void; onCancel: () => void }): React.JSX.Element {
  const { t } = useI18n()
  const about = useId()
  const first = props.plans[0]
  const title = props.plans.length === 1 && first ? t('deployConfirm.title', { target: targetLabel(t, first.target) }) : t('deployConfirm.titleMany', { n: props.plans.length })
  return (
    <Dialog title={title} onClose={props.onCancel} className="deploy-confirm" testId="deploy-confirm" describedBy={about}>
      <div id={about} className="deploy-confirm-about">
        {props.sample && (
          <p className="banner banner-warn deploy-confirm-sample" data-testid="deploy-confirm-sample">
            <span>
              <strong>{t('deployConfirm.sampleTitle')}</strong> {t('deployConfirm.sampleBody')}
            </span>
          </p>
        )}
        <ul className="deploy-confirm-folders" data-testid="deploy-confirm-folders">
          {props.plans.map((plan) => {
            const c = confirmCounts(plan)
            return (
              <li key={plan.target.dir} className="deploy-confirm-folder" data-testid="deploy-confirm-folder" data-dir={plan.target.dir} data-written={c.written} data-updated={c.updated} data-removed={c.removed} data-left={c.leftAlone}>
                <span className="strong">{targetLabel(t, plan.target)}</span>
                <code className="small break" data-testid="deploy-confirm-dir">
                  {plan.target.dir}
                </code>
                {!plan.target.exists && <span className="small muted">{t('deployConfirm.folderMade')}</span>}
                <span data-testid="deploy-confirm-counts">
                  {t('deployConfirm.counts', { written: c.written, updated: c.updated, left: c.leftAlone })}
                  {c.removed > 0 && ` ${t('deployConfirm.removed', { n: c.removed })}`}
                  {c.offered > 0 && ` ${t('deployConfirm.offered', { n: c.offered })}`}
                </span>
              </li>
            )
          })}
        </ul>
        <p className="small muted" data-testid="deploy-confirm-undo">
          {t('deployConfirm.undoWhere')}
        </p>
      </div>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={props.onCancel} data-autofocus data-testid="deploy-confirm-cancel">
          {t('common.cancel')}
        </button>
        <button type="button" className="btn btn-primary" onClick={props.onConfirm} disabled={props.checking || props.nothing} data-testid="deploy-confirm-run">
          {props.checking ? t('deploy.previewing') : t(props.sample ? 'deployConfirm.runSample' : 'deployConfirm.run')}
        </button>
      </div>
    </Dialog>
  )
}

import type { SkillUsage } from '../../../shared/types'
import { useI18n } from '../../i18n/i18n'
import { usageCell, type Fetches } from './usage-format'

/**
 * A skill's row cell in the Skills list: how often agents used it by the logs read (or, when they show none, how often
 * it was fetched), and how those tasks went against the baseline.
 */
export function SkillUsageCell(props: { usage: SkillUsage | undefined; fetches: Fetches; loading: boolean; failed?: boolean }): React.JSX.Element {
  const { t } = useI18n()
  if (props.loading) return <span className="cell-sub">…</span>
  if (props.failed) return <span className="cell-sub">—</span>
  const cell = usageCell(t, props.usage, props.fetches)
  const title = [cell.uses, cell.result, cell.note].filter(Boolean).join('\n')
  return (
    <span className="cell-title usage-cell" data-testid="skill-usage" title={title}>
      <span className={cell.tone === 'muted' ? 'cell-sub' : 'usage-uses'}>{cell.uses}</span>
      {cell.result && <span className={cell.tone === 'bad' ? 'cell-sub bad-text' : 'cell-sub'}>{cell.result}</span>}
    </span>
  )
}

import { useMemo, useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useApi } from '../../api/context'
import { queryKeys } from '../../api/query-keys'
import { useAppState } from '../../app-state'
import { ErrorNotice } from '../../components/ErrorNotice'
import { useI18n } from '../../i18n/i18n'
import { judged, neverUsedIn, failingSkills, pct, wentWrong, baselineText, unusedItemText, type NeverUsed } from './usage-format'
import { useUsage } from './use-usage'

const DAYS = 30
const SHOWN = 8

/**
 * The Overview's two usage lists: skills no agent used in 30 days (open, or retire with undo) and skills whose
 * tasks went wrong more often than the baseline (open the evidence). Both lead to Curate for proposals.
 */
export function UsageLists(props: { library: string }): React.JSX.Element {
  const { t } = useI18n()
  const api = useApi()
  const client = useQueryClient()
  const { navigate } = useAppState()
  const { library } = props
  const usage = useUsage(library)
  const skills = useQuery({ queryKey: queryKeys.skills(library), queryFn: () => api.call('skills.list', { library, includeLegacy: true }) })
  const [now] = useState(() => Date.now())
  const [allUnused, setAllUnused] = useState(false)
  const [retired, setRetired] = useState<{ skillId: string; title: string } | null>(null)
  const never = useMemo(() => (usage.data && skills.data ? neverUsedIn(skills.data.skills, usage.data, DAYS, now) : null), [usage.data, skills.data, now])
  const unused = never?.unused ?? []
  const usageById = useMemo(() => new Map((usage.data?.skills ?? []).map((u) => [u.skill_id, u])), [usage.data])
  const failing = useMemo(() => (usage.data ? failingSkills(usage.data) : []), [usage.data])
  const tooFew = usage.data?.skills.filter((u) => u.verdict === 'too-few').length ?? 0
  const refresh = (): void => void client.invalidateQueries({ queryKey: queryKeys.library(library) })
  const retire = useMutation({
    mutationFn: (s: { skillId: string; title: string }) => api.call('skills.delete', { library, skillId: s.skillId }),
    onSuccess: (_moved, s) => {
      setRetired(s)
      refresh()
    }
  })
  const undo = useMutation({
    mutationFn: (skillId: string) => api.call('skills.restore', { library, skillId }),
    onSuccess: () => {
      setRetired(null)
      refresh()
    }
  })
  const shownUnused = allUnused ? unused : unused.slice(0, SHOWN)
  const open = (skillId: string): void => navigate({ screen: 'editor', library, skillId })
  return (
    <div className="usage-lists" data-testid="usage-lists">
      {usage.error && (
        <div className="panel">
          <ErrorNotice error={usage.error} action="usage.failedLoad" onRetry={() => void usage.refetch()} />
        </div>
      )}
      {retired && (
        <div className="banner banner-ok" role="status" data-testid="usage-retired">
          <span>{t('usage.retired', { title: retired.title })}</span>
          <div className="spacer" />
          <button type="button" className="btn btn-small" data-testid="usage-retire-undo" disabled={undo.isPending} onClick={() => undo.mutate(retired.skillId)}>
            {t('usage.undo')}
          </button>
        </div>
      )}
      {retire.error && <ErrorNotice error={retire.error} action="failed.retireSkill" />}
      {undo.error && <ErrorNotice error={undo.error} action="failed.restoreSkill" />}
      <section className="panel" aria-labelledby="usage-unused-title" data-testid="usage-unused">
        <h2 id="usage-unused-title">
          {t('usage.unusedTitle')} {usage.data && skills.data && <span className="muted">({unused.length})</span>}
        </h2>
        <p className="muted small">{t('usage.unusedHelp')}</p>
        {usage.isLoading || skills.isLoading ? (
          <p className="muted">{t('usage.loading')}</p>
        ) : unused.length === 0 ? (
          never && <UnusedNone never={never} />
        ) : (
          <>
            <ul className="usage-list">
              {shownUnused.map(({ skill }) => (
                <li key={skill.skill_id} data-testid="usage-unused-item">
                  <span className="usage-list-text">
                    <span className="ellipsis strong">{skill.title || skill.skill_id}</span>
                    <span className="cell-sub">{unusedItemText(t, skill, usageById.get(skill.skill_id))}</span>
                  </span>
                  <button type="button" className="btn btn-small" aria-label={t('usage.openAria', { title: skill.title || skill.skill_id })} onClick={() => open(skill.skill_id)}>
                    {t('usage.open')}
                  </button>
                  <button
                    type="button"
                    className="btn btn-small"
                    data-testid="usage-retire"
                    aria-label={t('usage.retireAria', { title: skill.title || skill.skill_id })}
                    disabled={retire.isPending}
                    onClick={() => retire.mutate({ skillId: skill.skill_id, title: skill.title || skill.skill_id })}
                  >
                    {t('usage.retire')}
                  </button>
                </li>
              ))}
            </ul>
            {never && never.notJudged > 0 && <p className="muted small" data-testid="usage-not-judged">{t('usage.unusedNotJudged', { n: never.notJudged })}</p>}
            {unused.length > SHOWN && (
              <button type="button" className="btn btn-small btn-ghost" onClick={() => setAllUnused(!allUnused)}>
                {allUnused ? t('usage.showFewer') : t('usage.showAll', { n: unused.length })}
              </button>
            )}
          </>
        )}
      </section>
      <section className="panel" aria-labelledby="usage-failing-title" data-testid="usage-failing">
        <h2 id="usage-failing-title">
          {t('usage.failingTitle')} {usage.data && <span className="muted">({failing.length})</span>}
        </h2>
        {usage.data && <p className="muted small">{t('usage.failingHelp', { min: usage.data.rules.minUses, margin: Math.round(usage.data.rules.margin * 100) })}</p>}
        {usage.isLoading ? (
          <p className="muted">{t('usage.loading')}</p>
        ) : failing.length === 0 ? (
          usage.data && <p className="muted">{t('usage.failingNone')}</p>
        ) : (
          <ul className="usage-list">
            {failing.map((u) => (
              <li key={u.skill_id} data-testid="usage-failing-item">
                <span className="usage-list-text">
                  <span className="ellipsis strong">{u.title || u.name}</span>
                  <span className="cell-sub bad-text">
                    {t('usage.wentWrongLong', { bad: wentWrong(u), n: judged(u), pct: pct(wentWrong(u), judged(u)), base: baselineText(u.baseline) })}
                  </span>
                </span>
                <button type="button" className="btn btn-small" data-testid="usage-failing-open" aria-label={t('usage.openAria', { title: u.title || u.name })} onClick={() => open(u.skill_id)}>
                  {t('usage.open')}
                </button>
              </li>
            ))}
          </ul>
        )}
        {tooFew > 0 && <p className="muted small">{t('usage.tooFewCount', { n: tooFew })}</p>}
        {(unused.length > 0 || failing.length > 0) && (
          <button type="button" className="btn btn-small" data-testid="usage-to-curate" onClick={() => navigate({ screen: 'curate' })}>
            {t('usage.toCurate')}
          </button>
        )}
      </section>
    </div>
  )
}

/** No skill to list: say why only as far as something watched (never "every skill was used" from nothing). */
function UnusedNone(props: { never: NeverUsed }): React.JSX.Element {
  const { t } = useI18n()
  const { never } = props
  if (!never.watched) return <p className="muted" data-testid="usage-not-watched">{t('usage.unusedNotWatched')}</p>
  return (
    <>
      {never.judged > 0 && <p className="muted">{t('usage.unusedNone')}</p>}
      {never.notJudged > 0 && <p className="muted small" data-testid="usage-not-judged">{t('usage.unusedNotJudged', { n: never.notJudged })}</p>}
    </>
  )
}

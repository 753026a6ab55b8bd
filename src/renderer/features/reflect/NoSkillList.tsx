import type { ReflectSummary } from '../../../shared/api'
import { useI18n } from '../../i18n/i18n'

/** The tasks a run judged not worth a skill, each with why (issue 36): greeting, no work, unfinished, follow-up of … */
export function NoSkillList({ skipped }: { skipped: ReflectSummary['skipped'] }): React.JSX.Element | null {
  const { t } = useI18n()
  const judged = skipped.flatMap((s) => (s.why ? [{ ...s, why: s.why }] : []))
  if (judged.length === 0) return null
  return (
    <section className="no-skill" aria-labelledby="reflect-no-skill-title" data-testid="reflect-no-skill">
      <h4 id="reflect-no-skill-title">{t('reflect.noSkillTitle', { n: judged.length })}</h4>
      <p className="muted">{t('reflect.noSkillLead')}</p>
      <ul className="links">
        {judged.map((s) => (
          <li key={`n:${s.taskDir}`} data-testid="reflect-no-skill-row" data-why={s.why}>
            <span className="strong">{s.taskDir}</span>{' '}
            <span className="cell-sub">{s.why === 'follow-up' ? (s.of ? t('reflect.why.follow-up', { of: s.of }) : t('reflect.why.follow-up-earlier')) : t(`reflect.why.${s.why}`)}</span>
          </li>
        ))}
      </ul>
    </section>
  )
}

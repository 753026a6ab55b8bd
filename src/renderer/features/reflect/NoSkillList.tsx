import type { NoSkillWhy, ReflectSummary, TaskSummary } from '../../../shared/api'
import { formatDate } from '../../components/format'
import { useI18n, type Translate } from '../../i18n/i18n'
import { taskTime } from '../../../shared/task-time'
import { taskHeadline } from '../workspaces/task-status'

/** A reason in the UI language; a follow-up names the task it continues by its headline when it is listed. */
export function whyText(t: Translate, why: NoSkillWhy, of: string | undefined, headlineOf: (taskDir: string) => string | undefined = () => undefined): string {
  if (why !== 'follow-up') return t(`reflect.why.${why}`)
  return of ? t('reflect.why.follow-up', { of: headlineOf(of) ?? of }) : t('reflect.why.follow-up-earlier')
}

/** Before a run: the tasks reflecting will read and make no skill of, each with why (a disclosure, open when short). */
export function SkippedTaskList({ tasks, all }: { tasks: readonly TaskSummary[]; all: readonly TaskSummary[] }): React.JSX.Element | null {
  const { t, lang } = useI18n()
  if (tasks.length === 0) return null
  const headlineOf = (dir: string): string | undefined => {
    const found = all.find((x) => x.taskDir === dir)
    return found ? `“${taskHeadline(found)}”` : undefined
  }
  return (
    <details className="panel no-skill" open={tasks.length <= 10} data-testid="reflect-skipped">
      <summary className="strong">{t('reflect.skippedTitle', { n: tasks.length })}</summary>
      <p className="muted">{t('reflect.skippedLead')}</p>
      <ul className="skipped-list">
        {tasks.map((task) => {
          const why = whyText(t, task.plan!.why!, task.plan?.of, headlineOf)
          return (
            <li key={task.path + task.taskDir} data-testid="reflect-skipped-row" data-why={task.plan?.why} className="check-row">
              <span className="strong ellipsis pick-headline" title={task.requirements[0]}>
                {taskHeadline(task)}
              </span>
              <span className="skip-why ellipsis" title={why}>
                {why}
              </span>
              <span className="cell-sub ellipsis">{[formatDate(taskTime(task), lang), task.user, task.taskDir].filter(Boolean).join(' · ')}</span>
            </li>
          )
        })}
      </ul>
    </details>
  )
}

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
            <span className="cell-sub">{whyText(t, s.why, s.of)}</span>
          </li>
        ))}
      </ul>
    </section>
  )
}

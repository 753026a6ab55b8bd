/**
 * A skill file that does not load (broken front matter, missing fields), opened as text where the problem is:
 * the error is marked on its line and column, the text can be fixed and saved (only once it parses), and the
 * fixed file opens as a skill.
 */
import { useEffect, useMemo, useRef, useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { SkillFileText } from '../../../shared/api'
import { isMessageRef, type MessageParams } from '../../../shared/error-codes'
import { locateSkillProblem } from '../../../shared/problem-position'
import { useApi } from '../../api/context'
import { queryKeys } from '../../api/query-keys'
import { useAppState } from '../../app-state'
import { Badge } from '../../components/Badge'
import { CodeEditor } from '../../components/code-editor/CodeEditor'
import type { EditorProblem } from '../../components/code-editor/CodeEditor'
import { ErrorNotice } from '../../components/ErrorNotice'
import { useI18n } from '../../i18n/i18n'
import { translateLine } from '../../i18n/messages-errors'
import { checkFrontMatter, issueText } from './front-matter'

export function SkillFileEditor(props: { library: string; path: string }): React.JSX.Element {
  const { t, lang } = useI18n()
  const api = useApi()
  const client = useQueryClient()
  const { navigate, setGuard } = useAppState()
  const file = useQuery({ queryKey: [...queryKeys.library(props.library), 'file', props.path], queryFn: () => api.call('skills.readFile', { library: props.library, path: props.path }) })
  const [base, setBase] = useState<SkillFileText | null>(null)
  const [draft, setDraft] = useState('')
  if (file.data && base === null) {
    setBase(file.data)
    setDraft(file.data.text)
  }
  const dirty = base !== null && draft !== base.text
  const dirtyRef = useRef(dirty)
  useEffect(() => {
    dirtyRef.current = dirty
  }, [dirty])
  useEffect(() => {
    setGuard(() => dirtyRef.current)
    return () => setGuard(null)
  }, [setGuard])

  const check = useMemo(() => checkFrontMatter(draft, props.path.endsWith('SKILL.md') ? 'skill-md' : 'agiagent'), [draft, props.path])
  // `named`: the message itself already says where ("… (at line 3, column 8)"), so the notice adds no position
  const problems: Array<EditorProblem & { named: boolean }> = useMemo(() => {
    if (!base) return []
    if (!dirty && base.problem) {
      return [{ line: base.problem.line ?? 1, column: base.problem.column ?? 1, message: translateLine(base.problem, base.problem.reason, lang), named: namesPosition(base.problem.params, { line: base.problem.line ?? 1, column: base.problem.column ?? 1 }) }]
    }
    const issue = check.issues[0]
    if (!issue) return []
    const at = issue.at ?? locateSkillProblem(draft)
    const where = { line: at?.line ?? 1, column: at?.column ?? 1 }
    return [{ ...where, message: issueText(issue, t, lang), named: namesPosition(issue.coded?.params, where) }]
  }, [base, dirty, draft, check, lang, t])

  const save = useMutation({
    mutationFn: (text: string) => api.call('skills.saveFile', { library: props.library, path: props.path, text, baseHash: base!.hash }),
    onSuccess: (result) => {
      setBase(result)
      setDraft(result.text)
      void client.invalidateQueries({ queryKey: queryKeys.library(props.library) })
      // saved: nothing is unsaved any more, so moving on to the skill needs no "discard?" question
      dirtyRef.current = false
      if (!result.problem && result.skillId) navigate({ screen: 'editor', library: props.library, skillId: result.skillId, focus: true })
    }
  })

  if (file.error)
    return (
      <section className="screen">
        <BackToSkills />
        <ErrorNotice error={file.error} action="failed.readFile" onRetry={() => void file.refetch()} />
      </section>
    )
  if (!base)
    return (
      <section className="screen">
        <p className="muted">{t('common.loading')}</p>
      </section>
    )
  const where = problems[0] && !problems[0].named ? t('file.where', { line: problems[0].line, column: problems[0].column }) : ''
  return (
    <section className="screen screen-fill editor-screen" aria-labelledby="file-title">
      <header className="screen-header">
        <BackToSkills />
        <h1 id="file-title" className="ellipsis" title={props.path}>
          {props.path}
        </h1>
        {dirty && <Badge tone="accent">{t('editor.unsaved')}</Badge>}
        <div className="spacer" />
        <button type="button" className="btn" disabled={!dirty} onClick={() => setDraft(base.text)}>
          {t('editor.revert')}
        </button>
        <button type="button" className="btn btn-primary" data-testid="file-save" disabled={!dirty || check.data === null || save.isPending} onClick={() => save.mutate(draft)} title={check.data === null ? t('file.fixFirst') : undefined}>
          {t('file.save')}
        </button>
      </header>
      {problems.length > 0 ? (
        <div className="banner banner-bad" role="status" data-testid="file-problem">
          <span>
            <strong>{base.problem && !dirty ? t('file.unreadable') : t('file.stillBroken')}</strong> {problems[0]!.message}
            {where && <> · {where}</>}
          </span>
        </div>
      ) : (
        <div className="banner banner-ok" role="status" data-testid="file-ok">
          {t('file.parsesNow')}
        </div>
      )}
      {save.error && <ErrorNotice error={save.error} action="failed.saveFile" />}
      <div className="editor-main">
        <CodeEditor value={draft} onChange={setDraft} language="markdown" ariaLabel={t('file.ariaLabel', { path: props.path })} problems={problems} autoFocus onSave={(text) => {
          if (text !== draft) setDraft(text)
          if (!save.isPending && checkFrontMatter(text, props.path.endsWith('SKILL.md') ? 'skill-md' : 'agiagent').data !== null) save.mutate(text)
        }} />
      </div>
    </section>
  )
}

/**
 * True when a message's words already name this line and column: its params (`parse.yaml_at`'s "(at line 3, column
 * 8)") or a nested problem's ("a [ opened at line 4, column 16 is never closed") hold that same position.
 */
function namesPosition(params: MessageParams | undefined, at: { line: number; column: number }): boolean {
  if (!params) return false
  if (Number(params.line) === at.line && Number(params.column) === at.column) return true
  return Object.values(params).some((v) => isMessageRef(v) && namesPosition(v.params, at))
}

function BackToSkills(): React.JSX.Element {
  const { t } = useI18n()
  const { navigate } = useAppState()
  return (
    <button type="button" className="btn btn-ghost" data-testid="editor-back" onClick={() => navigate({ screen: 'skills', showErrors: true })}>
      ← {t('nav.skills')}
    </button>
  )
}

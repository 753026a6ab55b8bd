import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ApiError } from '../../../shared/api-error'
import type { SkillDocument } from '../../../shared/api'
import { useApi } from '../../api/context'
import { queryKeys } from '../../api/query-keys'
import { useAppState } from '../../app-state'
import { Badge } from '../../components/Badge'
import { CodeEditor, DiffView } from '../../components/code-editor/CodeEditor'
import type { EditorProblem } from '../../components/code-editor/CodeEditor'
import { Dialog } from '../../components/Dialog'
import { ErrorNotice } from '../../components/ErrorNotice'
import { formatDate, formatQuality } from '../../components/format'
import { useFocusSoon } from '../../components/focus-soon'
import { RatingControl } from '../../components/RatingControl'
import { useI18n } from '../../i18n/i18n'
import { CodeFileDialog } from './CodeFileDialog'
import { ProvenancePanel } from '../sources/ProvenancePanel'
import { SkillAuditPanel } from '../audit/AuditFindings'
import { SkillUsagePanel } from '../usage/SkillUsagePanel'
import { checkFrontMatter, issueText, rebaseFrontMatter } from './front-matter'

interface Base {
  text: string
  hash: string
}

/** Monaco editor for one skill file: validation, save with conflict handling, rating, links. */
export function SkillEditor(props: { library: string; skillId: string; focus?: boolean }): React.JSX.Element {
  const { t, lang } = useI18n()
  const api = useApi()
  const client = useQueryClient()
  const { navigate, setGuard } = useAppState()
  const { library, skillId } = props
  const doc = useQuery({
    queryKey: queryKeys.skill(library, skillId),
    queryFn: () => api.call('skills.get', { library, skillId, includeLegacy: true })
  })
  const [base, setBase] = useState<Base | null>(null)
  const [draft, setDraft] = useState<string>('')
  const [diskChanged, setDiskChanged] = useState(false)
  const [conflict, setConflict] = useState<SkillDocument | null>(null)
  const [saved, setSaved] = useState(false)
  const [confirmRetire, setConfirmRetire] = useState(false)
  const [viewing, setViewing] = useState<string | null>(null)
  const [reverted, setReverted] = useState(false)
  const focusSoon = useFocusSoon()
  const dirty = base !== null && draft !== base.text
  const dirtyRef = useRef(dirty)
  const draftRef = useRef(draft)
  useEffect(() => {
    dirtyRef.current = dirty
    draftRef.current = draft
  }, [dirty, draft])

  // Take the disk version when it arrives, unless the user has unsaved edits (then only warn).
  const loaded = doc.data
  const [seenDoc, setSeenDoc] = useState<SkillDocument | undefined>(undefined)
  if (loaded && loaded !== seenDoc) {
    setSeenDoc(loaded)
    if (base === null || !dirty) {
      setBase({ text: loaded.text, hash: loaded.skill.hash })
      setDraft(loaded.text)
      setDiskChanged(false)
    } else if (loaded.skill.hash !== base.hash) setDiskChanged(true)
  }

  useEffect(() => {
    setGuard(() => dirtyRef.current)
    return () => setGuard(null)
  }, [setGuard])

  const accept = useCallback(
    (result: SkillDocument) => {
      setBase({ text: result.text, hash: result.skill.hash })
      setDraft(result.text)
      setDiskChanged(false)
      setConflict(null)
      client.setQueryData(queryKeys.skill(library, skillId), result)
      void client.invalidateQueries({ queryKey: queryKeys.skills(library) })
      void client.invalidateQueries({ queryKey: queryKeys.overview(library) })
    },
    [client, library, skillId]
  )

  const save = useMutation({
    mutationFn: (input: { text: string; baseHash: string; baseText: string }) => api.call('skills.save', { library, skillId, ...input }),
    onSuccess: (result, sent) => {
      setBase({ text: result.text, hash: result.skill.hash })
      // Keep typing that happened while the save was on its way; otherwise show the file as saved.
      setDraft((current) => (current === sent.text ? result.text : current))
      setDiskChanged(false)
      client.setQueryData(queryKeys.skill(library, skillId), result)
      void client.invalidateQueries({ queryKey: queryKeys.skills(library) })
      void client.invalidateQueries({ queryKey: queryKeys.overview(library) })
      setSaved(true)
    },
    onError: async (err) => {
      if (err instanceof ApiError && err.code === 'conflict') {
        try {
          setConflict(await api.call('skills.get', { library, skillId, includeLegacy: true }))
        } catch {
          // the error notice below still says what happened
        }
      }
    }
  })

  const check = useMemo(() => checkFrontMatter(draft, loaded?.skill.format ?? 'agiagent'), [draft, loaded?.skill.format])
  // the problems that have a place, marked on their line in the editor (squiggle and hover, in the UI language)
  const problems: EditorProblem[] = useMemo(() => check.issues.flatMap((issue) => (issue.at ? [{ ...issue.at, message: issueText(issue, t, lang) }] : [])), [check, t, lang])
  // Rating merges into unsaved edits, unless those edits touch the rating's own fields (then: save first), or the
  // edited front matter does not parse (then nobody can tell whether they do: fix it first).
  const ratingBlocked =
    !dirty || base === null
      ? null
      : check.data === null
        ? t('rating.fixFrontMatterFirst')
        : rebaseFrontMatter(base.text, base.text.replace(/^(\s*quality_index:\s*).*$/m, '$1-1'), draft) === null
          ? t('rating.saveFirst')
          : null
  const canSave = dirty && !save.isPending && check.data !== null

  // `text` comes from the editor itself on Ctrl+S: React state may lag a few keystrokes behind.
  const doSave = useCallback(
    (text?: string) => {
      const current = text ?? draft
      if (!base || current === base.text || save.isPending) return
      if (text !== undefined && text !== draft) setDraft(text)
      setSaved(false)
      setReverted(false)
      save.mutate({ text: current, baseHash: base.hash, baseText: base.text })
    },
    [base, draft, save]
  )

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.defaultPrevented || (e.target instanceof Element && e.target.closest('.monaco-editor'))) return // Monaco's own command saved
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
        e.preventDefault()
        doSave()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [doSave])

  const retire = useMutation({
    mutationFn: () => api.call('skills.delete', { library, skillId }),
    onSuccess: () => {
      setConfirmRetire(false)
      void client.invalidateQueries({ queryKey: queryKeys.library(library) })
    }
  })
  const restore = useMutation({
    mutationFn: () => api.call('skills.restore', { library, skillId }),
    onSuccess: (result) => {
      accept(result)
      void client.invalidateQueries({ queryKey: queryKeys.library(library) })
    }
  })

  if (doc.error && !loaded)
    return (
      <section className="screen">
        <BackLink />
        <ErrorNotice error={doc.error} action="failed.openSkill" onRetry={() => void doc.refetch()} />
      </section>
    )
  if (!loaded || base === null)
    return (
      <section className="screen">
        <p className="muted">{t('common.loading')}</p>
      </section>
    )
  const skill = loaded.skill
  const saveError = save.error && !(save.error instanceof ApiError && save.error.code === 'conflict' && conflict) ? save.error : null

  return (
    <section className="screen screen-fill editor-screen" aria-labelledby="editor-title">
      <header className="screen-header">
        <BackLink />
        <h1 id="editor-title" className="ellipsis" title={skill.title}>
          {skill.title || skill.skill_id}
        </h1>
        {skill.legacy && <Badge tone="warn">{t('skills.legacyBadge')}</Badge>}
        {dirty ? (
          <Badge tone="accent" testId="dirty-badge">
            {t('editor.unsaved')}
          </Badge>
        ) : saved ? (
          <Badge tone="ok" testId="saved-badge">
            {t('editor.saved')}
          </Badge>
        ) : reverted ? (
          <span className="muted" role="status" tabIndex={-1} data-testid="reverted-status">
            {t('editor.reverted')}
          </span>
        ) : null}
        <div className="spacer" />
        <button
          type="button"
          className="btn"
          disabled={!dirty}
          onClick={() => {
            setDraft(base.text)
            setReverted(true)
            focusSoon('reverted-status')
          }}
        >
          {t('editor.revert')}
        </button>
        <button type="button" className="btn btn-primary" data-testid="editor-save" disabled={!canSave} onClick={() => doSave()} title={t('editor.saveHint')}>
          {save.isPending ? t('editor.saving') : t('editor.save')}
        </button>
      </header>
      {diskChanged && (
        <div className="banner banner-warn" role="status" data-testid="disk-changed">
          {t('editor.diskChangedWhileEditing')}
          <button type="button" className="btn btn-small" onClick={() => setConflict(loaded)}>
            {t('editor.compare')}
          </button>
        </div>
      )}
      {saveError !== null && <ErrorNotice error={saveError} action="failed.saveSkill" />}
      <div className="editor-layout">
        <div className="editor-main">
          <CodeEditor value={draft} onChange={setDraft} language="markdown" ariaLabel={t('editor.ariaLabel')} onSave={doSave} autoFocus={props.focus} problems={problems} />
        </div>
        <aside className="editor-side" aria-label={t('editor.details')}>
          <section className="panel">
            <h2>{t('editor.frontMatter')}</h2>
            {check.issues.length === 0 ? (
              <p className="ok-text" data-testid="fm-valid">
                ✓ {t('fm.valid')}
              </p>
            ) : (
              <ul className="issues" data-testid="fm-issues">
                {check.issues.map((issue, i) => (
                  <li key={i}>{issueText(issue, t, lang)}</li>
                ))}
              </ul>
            )}
            <dl className="meta">
              <dt>ID</dt>
              <dd>{skill.skill_id}</dd>
              <dt>{t('skills.format')}</dt>
              <dd>{skill.format === 'skill-md' ? 'SKILL.md' : 'AGIAgent'}</dd>
              <dt>{t('skills.col.quality')}</dt>
              <dd data-testid="editor-quality">{formatQuality(skill.quality_index)}</dd>
              <dt>{t('skills.col.fetch')}</dt>
              <dd>{skill.fetch_count}</dd>
              <dt>{t('skills.col.created')}</dt>
              <dd>{formatDate(skill.created_at, lang)}</dd>
              <dt>{t('editor.updated')}</dt>
              <dd>{formatDate(skill.updated_at, lang)}</dd>
              <dt>{t('skills.col.lastFetched')}</dt>
              <dd>{formatDate(skill.last_used_at, lang)}</dd>
              <dt>{t('editor.file')}</dt>
              <dd className="break">{skill.path}</dd>
            </dl>
          </section>
          {!skill.legacy && (
            <section className="panel">
              <h2>{t('rating.title')}</h2>
              <RatingControl
                quality={skill.quality_index}
                blocked={ratingBlocked ?? undefined}
                onRate={async (rating) => {
                  const result = await api.call('skills.rate', { library, skillId, rating })
                  // the rating rewrote the file: take its new front matter into unsaved edits instead of a conflict
                  const fresh = await api.call('skills.get', { library, skillId, includeLegacy: true })
                  const rebased = dirtyRef.current && base ? rebaseFrontMatter(base.text, fresh.text, draftRef.current) : null
                  if (rebased !== null) {
                    setBase({ text: fresh.text, hash: fresh.skill.hash })
                    setDraft(rebased)
                    client.setQueryData(queryKeys.skill(library, skillId), fresh)
                  } else if (!dirtyRef.current) {
                    accept(fresh)
                  }
                  void client.invalidateQueries({ queryKey: queryKeys.skills(library) })
                  void client.invalidateQueries({ queryKey: queryKeys.overview(library) })
                  return result
                }}
              />
            </section>
          )}
          <ProvenancePanel library={library} text={loaded.text} skillPath={skill.path} />
          <SkillAuditPanel library={library} skillId={skillId} hash={skill.hash} />
          {!skill.legacy && <SkillUsagePanel library={library} skillId={skillId} fetches={skill} />}
          <section className="panel">
            <h2>{t('editor.sourceTasks')}</h2>
            {skill.task_directories.length === 0 ? (
              <p className="muted">{t('common.none')}</p>
            ) : (
              <ul className="links">
                {skill.task_directories.map((dir) => (
                  <li key={dir}>
                    <button type="button" className="link" onClick={() => navigate({ screen: 'workspaces', taskPath: dir })}>
                      {dir}
                    </button>
                  </li>
                ))}
              </ul>
            )}
            <h2>{t('editor.backedUpCode')}</h2>
            {loaded.relatedFiles.length === 0 ? (
              <p className="muted">{t('common.none')}</p>
            ) : (
              <ul className="links">
                {loaded.relatedFiles.map((f) => (
                  <li key={f}>
                    <button type="button" className="link" data-testid="related-file" onClick={() => setViewing(f)}>
                      <code className="break">{f}</code>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section className="panel">
            {skill.legacy ? (
              <button type="button" className="btn" onClick={() => restore.mutate()} disabled={restore.isPending}>
                {t('skills.restore')}
              </button>
            ) : (
              <button type="button" className="btn btn-danger" onClick={() => setConfirmRetire(true)}>
                {t('editor.retire')}
              </button>
            )}
            {restore.error && <ErrorNotice error={restore.error} action="failed.restoreSkill" />}
            {retire.error && <ErrorNotice error={retire.error} action="failed.retireSkill" />}
          </section>
        </aside>
      </div>
      {conflict && (
        <Dialog title={t('conflict.title')} onClose={() => setConflict(null)} wide testId="conflict-dialog">
          <p>{t('conflict.body')}</p>
          <ConflictDiff disk={conflict.text} mine={draft} onMine={setDraft} />
          <div className="dialog-actions">
            <button type="button" className="btn" onClick={() => setConflict(null)}>
              {t('common.cancel')}
            </button>
            <button type="button" className="btn" data-testid="conflict-reload" onClick={() => accept(conflict)}>
              {t('conflict.reload')}
            </button>
            <button
              type="button"
              className="btn btn-danger"
              data-testid="conflict-overwrite"
              onClick={() => {
                const baseHash = conflict.skill.hash
                setConflict(null)
                save.mutate({ text: draft, baseHash, baseText: conflict.text })
              }}
            >
              {t('conflict.overwrite')}
            </button>
          </div>
        </Dialog>
      )}
      {viewing && <CodeFileDialog library={props.library} path={viewing} onClose={() => setViewing(null)} />}
      {confirmRetire && (
        <Dialog title={t('editor.retire')} onClose={() => setConfirmRetire(false)}>
          <p>{t('editor.retireBody')}</p>
          <div className="dialog-actions">
            <button type="button" className="btn" onClick={() => setConfirmRetire(false)} data-autofocus>
              {t('common.cancel')}
            </button>
            <button type="button" className="btn btn-danger" onClick={() => retire.mutate()} disabled={retire.isPending}>
              {t('editor.retire')}
            </button>
          </div>
        </Dialog>
      )}
    </section>
  )
}

function ConflictDiff(props: { disk: string; mine: string; onMine: (text: string) => void }): React.JSX.Element {
  const { t } = useI18n()
  // The diff keeps its own copy so typing on the right doesn't remount Monaco.
  const [initialMine] = useState(props.mine)
  return (
    <>
      <div className="diff-legend">
        <span>{t('conflict.onDisk')}</span>
        <span>{t('conflict.yours')}</span>
      </div>
      <DiffView original={props.disk} modified={initialMine} onModifiedChange={props.onMine} ariaLabel={t('conflict.title')} originalLabel={t('conflict.onDisk')} modifiedLabel={t('conflict.yours')} height="360px" />
    </>
  )
}

function BackLink(): React.JSX.Element {
  const { t } = useI18n()
  const { navigate } = useAppState()
  return (
    <button type="button" className="btn btn-ghost" data-testid="editor-back" onClick={() => navigate({ screen: 'skills' })}>
      ← {t('nav.skills')}
    </button>
  )
}

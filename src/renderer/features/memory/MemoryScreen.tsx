import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ApiError } from '../../../shared/api-error'
import type { MemoryDocument, MemoryStatusResult } from '../../../shared/api'
import { useApi } from '../../api/context'
import { queryKeys } from '../../api/query-keys'
import { useAppState } from '../../app-state'
import { Badge } from '../../components/Badge'
import { CodeEditor } from '../../components/code-editor/CodeEditor'
import { ErrorNotice } from '../../components/ErrorNotice'
import { NoLibrary } from '../../components/NoLibrary'
import { formatBytes, formatDate } from '../../components/format'
import { useI18n } from '../../i18n/i18n'
import type { MessageKey } from '../../i18n/messages'
import { translateLine } from '../../i18n/messages-errors'

/** The agent's long-term memory of the selected library: files in Monaco, preferences to review, consolidation, prompt. */
export function MemoryScreen(): React.JSX.Element {
  const { t, lang } = useI18n()
  const api = useApi()
  const client = useQueryClient()
  const { library } = useAppState()
  const lib = library ?? ''
  const [fileName, setFileName] = useState('lessons.md')
  const status = useQuery({ queryKey: queryKeys.memoryStatus(lib), queryFn: () => api.call('memory.status', { library: lib }), enabled: !!library })
  const refresh = (): void => void client.invalidateQueries({ queryKey: queryKeys.memory(lib) })
  const consolidate = useMutation({ mutationFn: () => api.call('memory.consolidate', { library: lib }), onSuccess: refresh })

  if (!library) return <NoLibrary title="memory.title" />
  const st = status.data
  return (
    <section className="screen" aria-labelledby="memory-title">
      <header className="screen-header">
        <h1 id="memory-title">{t('memory.title')}</h1>
        <div className="spacer" />
        <button type="button" className="btn btn-primary" data-testid="memory-consolidate" disabled={!st?.workspace || consolidate.isPending} onClick={() => consolidate.mutate()}>
          {t('memory.consolidate')}
        </button>
      </header>
      <p className="lead">{t('memory.lead')}</p>
      {status.error && <ErrorNotice error={status.error} action="failed.loadMemory" onRetry={() => void status.refetch()} />}
      {st && <WorkspacePanel status={st} onChanged={(next) => client.setQueryData(queryKeys.memoryStatus(lib), next)} />}
      {st && !st.enabled && (
        <p className="notice" data-testid="memory-disabled">
          {t('memory.disabled')}
        </p>
      )}
      {consolidate.error && <ErrorNotice error={consolidate.error} action="failed.consolidate" />}
      {consolidate.data && (
        <p className="muted" data-testid="memory-consolidate-result">
          {consolidate.data.consolidated.length > 0
            ? t('memory.consolidated', { days: consolidate.data.consolidated.map((c) => c.day).join(', ') })
            : t('memory.nothingToConsolidate')}
          {consolidate.data.failed.length > 0 && ` · ${t('memory.consolidateFailed', { days: consolidate.data.failed.map((f) => `${f.day} (${translateLine(f, f.error, lang)})`).join(', ') })}`}
        </p>
      )}
      {st?.workspace && (
        <>
          <div className="memory-layout">
            <nav className="memory-files" aria-label={t('memory.files')}>
              <ul className="nav-list">
                {st.files.map((f) => (
                  <li key={f.name}>
                    <button type="button" className="nav-item" data-testid="memory-file" aria-current={f.name === fileName ? 'true' : undefined} onClick={() => setFileName(f.name)}>
                      <span className="ellipsis">{f.name}</span>
                      <span className="muted">
                        {f.name.startsWith('logs/')
                          ? st.consolidatedDays.includes(f.name.slice(5, 15))
                            ? ` ${t('memory.consolidatedBadge')}`
                            : ''
                          : f.exists
                            ? ` ${f.entries} · ${formatBytes(f.bytes)}`
                            : ` ${t('memory.notYet')}`}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            </nav>
            <MemoryFileEditor key={`${lib}:${fileName}`} library={lib} name={fileName} onSaved={refresh} />
          </div>
          <LearnFromTasks library={lib} onChanged={refresh} />
          <PendingPreferences library={lib} status={st} onChanged={refresh} />
          <LongTermPreferences status={st} />
          <PromptSections library={lib} />
        </>
      )}
    </section>
  )
}

function WorkspacePanel(props: { status: MemoryStatusResult; onChanged: (next: MemoryStatusResult) => void }): React.JSX.Element {
  const { t } = useI18n()
  const api = useApi()
  const { status } = props
  const [folder, setFolder] = useState('')
  const set = useMutation({
    mutationFn: (path: string | null) => api.call('memory.setWorkspace', { library: status.library, path }),
    onSuccess: (next) => {
      setFolder('')
      props.onChanged(next)
    }
  })
  return (
    <div className="panel" data-testid="memory-workspace">
      <p>
        {status.dir ? (
          <>
            {t('memory.folder')}: <code data-testid="memory-dir">{status.dir}</code>{' '}
            <Badge tone={status.isDefault ? 'muted' : 'info'}>{status.isDefault ? t('memory.default') : t('memory.chosen')}</Badge>{' '}
            {!status.exists && <span className="muted">{t('memory.createdOnWrite')}</span>}
          </>
        ) : (
          <span data-testid="memory-no-folder">{t('memory.noFolder')}</span>
        )}
      </p>
      <div className="toolbar">
        <input className="input grow" aria-label={t('memory.chooseFolder')} placeholder={t('memory.chooseFolder')} data-testid="memory-workspace-input" value={folder} onChange={(e) => setFolder(e.target.value)} />
        <button type="button" className="btn" data-testid="memory-workspace-save" disabled={!folder.trim() || set.isPending} onClick={() => set.mutate(folder.trim())}>
          {t('memory.useFolder')}
        </button>
        {!status.isDefault && (
          <button type="button" className="btn" data-testid="memory-workspace-reset" disabled={set.isPending} onClick={() => set.mutate(null)}>
            {t('memory.useDefault')}
          </button>
        )}
      </div>
      <p className="muted">{t('memory.folderHelp')}</p>
      {set.error && <ErrorNotice error={set.error} action="failed.setMemoryFolder" />}
    </div>
  )
}

/** What goes in each memory file, said while it does not exist yet (a blank editor says nothing). */
const EMPTY_HINT: Record<string, MessageKey | undefined> = {
  'lessons.md': 'memory.emptyLessons',
  'preferences.md': 'memory.emptyPreferences',
  'procedural.md': 'memory.emptyProcedural',
  'long-term.md': 'memory.emptyLongTerm'
}

/** One memory file in Monaco; saving checks that nobody changed it meanwhile. */
function MemoryFileEditor(props: { library: string; name: string; onSaved: () => void }): React.JSX.Element {
  const { t } = useI18n()
  const api = useApi()
  const doc = useQuery({ queryKey: queryKeys.memoryFile(props.library, props.name), queryFn: () => api.call('memory.read', { library: props.library, name: props.name }) })
  const [base, setBase] = useState<MemoryDocument | null>(null)
  const [draft, setDraft] = useState('')
  const dirty = base !== null && draft !== (base.text ?? '')
  // a newer version on disk replaces the shown one while nothing is edited
  if (doc.data && (base === null || (doc.data.hash !== base.hash && !dirty))) {
    setBase(doc.data)
    setDraft(doc.data.text ?? '')
  }
  const save = useMutation({
    mutationFn: (text: string) => api.call('memory.write', { library: props.library, name: props.name, text, baseHash: base?.hash ?? null }),
    onSuccess: (saved) => {
      setBase(saved)
      props.onSaved()
    }
  })
  const conflict = save.error instanceof ApiError && save.error.code === 'conflict'
  const reload = async (): Promise<void> => {
    const fresh = await doc.refetch()
    if (fresh.data) {
      setBase(fresh.data)
      setDraft(fresh.data.text ?? '')
      save.reset()
    }
  }
  return (
    <div className="memory-editor" data-testid="memory-editor">
      <div className="toolbar">
        <strong>{props.name}</strong>
        {base && base.text === null && <Badge tone="muted">{t('memory.newFile')}</Badge>}
        {dirty && (
          <Badge tone="warn" testId="memory-dirty">
            {t('memory.unsaved')}
          </Badge>
        )}
        {save.isSuccess && !dirty && (
          <Badge tone="ok" testId="memory-saved">
            {t('memory.saved')}
          </Badge>
        )}
        <div className="spacer" />
        <button type="button" className="btn btn-primary" data-testid="memory-save" disabled={!dirty || save.isPending} onClick={() => save.mutate(draft)}>
          {t('memory.save')}
        </button>
      </div>
      {doc.error && <ErrorNotice error={doc.error} action="failed.readMemory" onRetry={() => void doc.refetch()} />}
      {save.error && <ErrorNotice error={save.error} action="failed.saveMemory" />}
      {conflict && (
        <button type="button" className="btn" data-testid="memory-reload" onClick={() => void reload()}>
          {t('memory.reload')}
        </button>
      )}
      {base && base.text === null && draft === '' && EMPTY_HINT[props.name] && (
        <p className="muted small" data-testid="memory-empty-hint">
          {t(EMPTY_HINT[props.name]!)}
        </p>
      )}
      {base && (
        <div className="memory-code">
          <CodeEditor value={draft} onChange={setDraft} onSave={(text) => save.mutate(text)} language="markdown" ariaLabel={props.name} />
        </div>
      )}
    </div>
  )
}

/** Seed 003: the user's finished tasks → lessons, preferences and a tool note, proposed for review on the Curate screen. */
function LearnFromTasks(props: { library: string; onChanged: () => void }): React.JSX.Element {
  const { t, lang } = useI18n()
  const api = useApi()
  const client = useQueryClient()
  const { navigate } = useAppState()
  const learn = useMutation({
    mutationFn: () => api.call('memory.evolve', { library: props.library, lang }),
    onSuccess: () => {
      props.onChanged()
      void client.invalidateQueries({ queryKey: queryKeys.curatePlan(props.library) })
    }
  })
  return (
    <section className="panel" aria-labelledby="learn-title" data-testid="memory-learn">
      <header className="screen-header">
        <h2 id="learn-title">{t('memory.learnTitle')}</h2>
        <div className="spacer" />
        <button type="button" className="btn" data-testid="memory-learn-start" disabled={learn.isPending} onClick={() => learn.mutate()}>
          {t('memory.learn')}
        </button>
      </header>
      <p className="muted">{t('memory.learnHelp')}</p>
      {learn.error && <ErrorNotice error={learn.error} action="failed.evolve" />}
      {learn.data && (
        <p role="status" data-testid="memory-learn-result">
          {t('memory.learned', learn.data)}{' '}
          {learn.data.proposed > 0 && (
            <button type="button" className="btn btn-small" data-testid="memory-learn-review" onClick={() => navigate({ screen: 'curate' })}>
              {t('memory.openCurate')}
            </button>
          )}
        </p>
      )}
    </section>
  )
}

/**
 * Every preference waiting for review, in one list however it was found: those Learn from tasks proposed (memory
 * proposals in the library's plan, reviewed on the Curate screen, opened on that proposal) and those "Find
 * preferences" queued in the memory folder (accepted or rejected here).
 */
function PendingPreferences(props: { library: string; status: MemoryStatusResult; onChanged: () => void }): React.JSX.Element {
  const { t, lang } = useI18n()
  const api = useApi()
  const { navigate } = useAppState()
  const capture = useMutation({ mutationFn: () => api.call('memory.capturePreferences', { library: props.library }), onSuccess: props.onChanged })
  const accept = useMutation({ mutationFn: (id: string) => api.call('memory.acceptPreference', { library: props.library, id }), onSuccess: props.onChanged })
  const reject = useMutation({ mutationFn: (id: string) => api.call('memory.rejectPreference', { library: props.library, id }), onSuccess: props.onChanged })
  const pending = props.status.pendingPreferences
  const proposed = props.status.proposedPreferences
  return (
    <section className="panel" aria-labelledby="prefs-title" data-testid="memory-preferences">
      <header className="screen-header">
        <h2 id="prefs-title">{t('memory.pendingTitle', { n: proposed.length + pending.length })}</h2>
        <div className="spacer" />
        <button type="button" className="btn" data-testid="memory-capture" disabled={capture.isPending} onClick={() => capture.mutate()}>
          {t('memory.capture')}
        </button>
      </header>
      <p className="muted">{t('memory.pendingHelp')}</p>
      {capture.data && (
        <p className="muted" data-testid="memory-capture-result">
          {t('memory.captured', { found: capture.data.found, queued: capture.data.queued })}
        </p>
      )}
      {(capture.error ?? accept.error ?? reject.error) && <ErrorNotice error={capture.error ?? accept.error ?? reject.error} action={capture.error ? 'failed.capture' : 'failed.reviewPreference'} />}
      {pending.length + proposed.length === 0 ? (
        <p className="empty">{t('memory.noPending')}</p>
      ) : (
        <ul className="journal">
          {proposed.map((p, i) => (
            <li key={`${p.proposalId}:${i}`} className="journal-entry" data-testid="memory-pref-proposed">
              <span className="strong" id={`proposed-pref-${i}`}>
                {p.text}
              </span>
              <span className="cell-sub ellipsis">{t('memory.proposedBy', { n: p.tasks })}</span>
              <div className="spacer" />
              <button
                type="button"
                className="btn btn-primary"
                data-testid="memory-pref-curate"
                aria-describedby={`proposed-pref-${i}`}
                onClick={() => navigate({ screen: 'curate', proposal: p.proposalId })}
              >
                {t('memory.reviewOnCurate')}
              </button>
            </li>
          ))}
          {pending.map((p) => (
            <li key={p.id} className="journal-entry" data-testid="memory-pref">
              <span className="strong">{p.text}</span>
              <span className="cell-sub ellipsis">
                {p.source} · {formatDate(p.found_at, lang)}
              </span>
              <div className="spacer" />
              <button type="button" className="btn btn-primary" data-testid="memory-pref-accept" disabled={accept.isPending} onClick={() => accept.mutate(p.id)}>
                {t('memory.accept')}
              </button>
              <button type="button" className="btn" data-testid="memory-pref-reject" disabled={reject.isPending} onClick={() => reject.mutate(p.id)}>
                {t('memory.reject')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** What long-term memory's preferences block holds: where a preference accepted here or on Curate ends up. */
function LongTermPreferences(props: { status: MemoryStatusResult }): React.JSX.Element {
  const { t } = useI18n()
  const prefs = props.status.longTermPreferences
  return (
    <section className="panel" aria-labelledby="longterm-prefs-title" data-testid="memory-longterm-prefs">
      <h2 id="longterm-prefs-title">{t('memory.longTermTitle', { n: prefs.length })}</h2>
      <p className="muted">{t('memory.longTermHelp')}</p>
      {prefs.length === 0 ? (
        <p className="empty">{t('memory.longTermEmpty')}</p>
      ) : (
        <ul className="longterm-prefs">
          {prefs.map((p, i) => (
            <li key={i} data-testid="memory-longterm-pref">
              {p}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

function PromptSections(props: { library: string }): React.JSX.Element {
  const { t } = useI18n()
  const api = useApi()
  const prompt = useQuery({ queryKey: queryKeys.memoryPrompt(props.library), queryFn: () => api.call('memory.prompt', { library: props.library }) })
  return (
    <section className="panel" aria-labelledby="prompt-title">
      <h2 id="prompt-title">{t('memory.promptTitle')}</h2>
      <p className="muted">{t('memory.promptHelp')}</p>
      {prompt.error && <ErrorNotice error={prompt.error} action="failed.loadPrompt" onRetry={() => void prompt.refetch()} />}
      {prompt.data &&
        (prompt.data.text.trim() ? (
          <>
            <p className="muted">
              {prompt.data.sections.map((s) => `${s.heading}: ${s.entries.length}${s.omitted ? ` (+${s.omitted} ${t('memory.omitted')})` : ''}`).join(' · ')}
            </p>
            <pre className="prompt-text" data-testid="memory-prompt">
              {prompt.data.text}
            </pre>
          </>
        ) : (
          <p className="empty" data-testid="memory-prompt-empty">
            {t('memory.promptEmpty')}
          </p>
        ))}
    </section>
  )
}

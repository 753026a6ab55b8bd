import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { DataRootInfo, PublicSettings, RootProblem, SettingsPatch } from '../../../shared/api'
import { useApi } from '../../api/context'
import { queryKeys } from '../../api/query-keys'
import { Badge } from '../../components/Badge'
import { ErrorNotice } from '../../components/ErrorNotice'
import { useI18n } from '../../i18n/i18n'
import type { MessageKey } from '../../i18n/messages'
import { translateText } from '../../i18n/messages-errors'
import { baseUrlProblem, blockedPortOf } from '../../../shared/base-url'
import { useAppState } from '../../app-state'
import { RootProblemNotice } from '../../components/RootProblemNotice'

type Draft = {
  provider: 'offline' | 'openai'
  baseUrl: string
  model: string
  timeoutSec: number
  concurrency: number
  merge: number
  eps: number
  minSamples: number
  cleanupDays: number
  enableLongTermMemory: boolean
  autoEnhance: boolean
}

function toDraft(s: PublicSettings): Draft {
  return {
    provider: s.llm.provider,
    baseUrl: s.llm.baseUrl,
    model: s.llm.model,
    timeoutSec: Math.round(s.llm.timeoutMs / 1000),
    concurrency: s.llm.concurrency,
    merge: s.thresholds.merge,
    eps: s.thresholds.eps,
    minSamples: s.thresholds.minSamples,
    cleanupDays: s.thresholds.cleanupDays,
    enableLongTermMemory: s.enableLongTermMemory,
    autoEnhance: s.autoEnhance
  }
}

function toPatch(d: Draft): SettingsPatch {
  return {
    llm: { provider: d.provider, baseUrl: d.baseUrl.trim(), model: d.model.trim(), timeoutMs: Math.round(d.timeoutSec * 1000), concurrency: d.concurrency },
    thresholds: { merge: d.merge, eps: d.eps, minSamples: d.minSamples, cleanupDays: d.cleanupDays },
    enableLongTermMemory: d.enableLongTermMemory,
    autoEnhance: d.autoEnhance
  }
}

function NumberField(props: { label: string; value: number; min: number; max: number; step: number; onChange: (v: number) => void; testId?: string; hint?: string }): React.JSX.Element {
  return (
    <label className="form-row">
      <span className="form-label">{props.label}</span>
      <input type="number" className="input num" data-testid={props.testId} min={props.min} max={props.max} step={props.step} value={props.value} onChange={(e) => props.onChange(Number(e.target.value))} />
      {props.hint && <span className="form-hint">{props.hint}</span>}
    </label>
  )
}

/** A root row's problem in a few words, said instead of its counts (which would read "0 user(s), 0 task(s)"). */
const ROW_PROBLEM: Record<RootProblem, MessageKey> = {
  missing: 'settings.rowProblem.missing',
  empty: 'settings.rowProblem.empty',
  library: 'settings.rowProblem.library',
  'task-folder': 'settings.rowProblem.taskFolder',
  sessions: 'settings.rowProblem.sessions',
  'no-tasks': 'settings.rowProblem.noTasks',
  'bundled-sample': 'settings.rowProblem.bundledSample'
}

/** The problem a root's row says, if any: a root with users but no task yet keeps its counts ("2 user(s), 0 task(s)"). */
function rowProblem(r: DataRootInfo): RootProblem | undefined {
  if (!r.problem || (r.problem === 'no-tasks' && r.users.length > 0)) return undefined
  return r.problem
}

/** Data roots, the model endpoint (key is write-only), thresholds, switches and language. */
export function SettingsScreen(): React.JSX.Element {
  const { t, lang, setLang } = useI18n()
  const api = useApi()
  const client = useQueryClient()
  const { setLibrary } = useAppState()
  const settings = useQuery({ queryKey: queryKeys.settings(), queryFn: () => api.call('settings.get', {}) })
  const info = useQuery({ queryKey: queryKeys.appInfo(), queryFn: () => api.call('app.info', {}) })
  const roots = useQuery({ queryKey: queryKeys.roots(), queryFn: () => api.call('roots.list', {}) })
  const [draft, setDraft] = useState<Draft | null>(null)
  const [newRoot, setNewRoot] = useState('')
  const [apiKey, setApiKey] = useState('')
  const [folder, setFolder] = useState('')
  // the data root just added: what it looks like (a skill library, a task folder…) is said under the field that chose it
  const [added, setAdded] = useState<string | null>(null)
  const libraries = useQuery({ queryKey: queryKeys.libraries(), queryFn: () => api.call('libraries.list', {}) })
  const openFolder = useMutation({
    mutationFn: (path: string) => api.call('libraries.open', { path }),
    onSuccess: (list, path) => {
      // the folder just opened becomes the selected library (it is new in the list, or already was there)
      const before = new Set((libraries.data ?? []).map((l) => l.path))
      const opened = list.find((l) => !before.has(l.path)) ?? list.find((l) => l.path === path.replace(/[\\/]+$/, ''))
      client.setQueryData(queryKeys.libraries(), list)
      if (opened) setLibrary(opened.path)
      setFolder('')
    }
  })
  const loaded = settings.data
  if (loaded && draft === null) setDraft(toDraft(loaded))

  const afterSettings = (s: PublicSettings): void => {
    client.setQueryData(queryKeys.settings(), s)
    setDraft(toDraft(s))
  }
  const save = useMutation({ mutationFn: (patch: SettingsPatch) => api.call('settings.update', { patch }), onSuccess: afterSettings })
  const setKey = useMutation({
    mutationFn: (key: string | null) => api.call('settings.setApiKey', { apiKey: key }),
    onSuccess: (s) => {
      client.setQueryData(queryKeys.settings(), s)
      setApiKey('')
    }
  })
  // tests what the form says now, saved or not
  const test = useMutation({ mutationFn: (d: Draft) => api.call('llm.test', { baseUrl: d.baseUrl.trim(), model: d.model.trim(), timeoutMs: Math.round(d.timeoutSec * 1000) }) })
  const afterRoots = (): void => {
    void client.invalidateQueries({ queryKey: queryKeys.roots() })
    void client.invalidateQueries({ queryKey: queryKeys.libraries() })
    void client.invalidateQueries({ queryKey: queryKeys.settings() })
  }
  const addRoot = useMutation({
    mutationFn: (path: string) => api.call('roots.add', { path }),
    onSuccess: (list, path) => {
      const before = new Set((roots.data ?? []).map((r) => r.path))
      setAdded((list.find((r) => !before.has(r.path)) ?? list.find((r) => r.path === path.replace(/[\\/]+$/, '')))?.path ?? null)
      client.setQueryData(queryKeys.roots(), list)
      setNewRoot('')
      afterRoots()
    }
  })
  const rememberRoot = useMutation({
    mutationFn: (path: string) => api.call('roots.add', { path }),
    onSuccess: (list) => {
      client.setQueryData(queryKeys.roots(), list)
      afterRoots()
    }
  })
  const removeRoot = useMutation({
    mutationFn: (path: string) => api.call('roots.remove', { path }),
    onSuccess: (list) => {
      client.setQueryData(queryKeys.roots(), list)
      afterRoots()
    }
  })

  if (settings.error) return <section className="screen"><h1>{t('settings.title')}</h1><ErrorNotice error={settings.error} action="failed.loadSettings" onRetry={() => void settings.refetch()} /></section>
  if (!loaded || !draft) return <section className="screen"><p className="muted">{t('common.loading')}</p></section>
  const set = <K extends keyof Draft>(key: K, value: Draft[K]): void => setDraft((d) => (d ? { ...d, [key]: value } : d))
  const dirty = JSON.stringify(toDraft(loaded)) !== JSON.stringify(draft)
  const urlProblem = baseUrlProblem(draft.baseUrl)
  // an empty URL is fine while no model is used; anything typed must be a real http(s) URL
  const urlBlocks = urlProblem !== null && (urlProblem !== 'empty' || draft.provider === 'openai')
  const storage = loaded.llm.keyStorage === 'safeStorage' ? t('settings.keySafeStorage') : loaded.llm.keyStorage === 'file-0600' ? t('settings.keyFile', { path: info.data?.settingsPath ?? '' }) : t('settings.keyNone')

  return (
    <section className="screen settings" aria-labelledby="settings-title">
      <header className="screen-header">
        <h1 id="settings-title">{t('settings.title')}</h1>
        <div className="spacer" />
        <button type="button" className="btn" disabled={!dirty} onClick={() => setDraft(toDraft(loaded))}>
          {t('editor.revert')}
        </button>
        <button type="button" className="btn btn-primary" data-testid="settings-save" disabled={!dirty || save.isPending || urlBlocks} title={urlBlocks ? t('settings.fixUrlFirst') : undefined} onClick={() => save.mutate(toPatch(draft))}>
          {t('settings.save')}
        </button>
      </header>
      {save.error && <ErrorNotice error={save.error} action="failed.saveSettings" />}
      {save.isSuccess && !dirty && <p className="ok-text" role="status">✓ {t('settings.saved')}</p>}

      <section className="panel">
        <h2>{t('settings.roots')}</h2>
        <p className="form-hint">{t('settings.rootsHelp')}</p>
        <ul className="root-list" data-testid="settings-roots">
          {roots.data?.map((r) => (
            <li key={r.path} data-testid="settings-root">
              <code className="break">{r.path}</code>
              {r.thisRunOnly ? (
                <Badge tone="warn" testId="root-this-run">
                  {t('settings.thisRunOnly')}
                </Badge>
              ) : (
                <Badge tone="muted" testId="root-remembered">
                  {t('settings.remembered')}
                </Badge>
              )}
              {rowProblem(r) ? (
                <Badge tone={r.problem === 'no-tasks' || r.problem === 'empty' ? 'warn' : 'bad'} testId="root-row-problem">
                  {t(ROW_PROBLEM[rowProblem(r)!])}
                </Badge>
              ) : (
                <span className="muted">{t('settings.rootInfo', { users: r.users.length, tasks: r.taskCount })}</span>
              )}
              <div className="spacer" />
              {r.thisRunOnly && (
                <button type="button" className="btn btn-small" data-testid="root-remember" onClick={() => rememberRoot.mutate(r.path)} disabled={rememberRoot.isPending}>
                  {t('settings.remember')}
                </button>
              )}
              <button type="button" className="btn btn-small" data-testid="root-forget" onClick={() => removeRoot.mutate(r.path)} disabled={removeRoot.isPending}>
                {r.thisRunOnly ? t('settings.removeForRun') : t('settings.forget')}
              </button>
            </li>
          ))}
          {roots.data?.length === 0 && <li className="muted">{t('ws.noRoots')}</li>}
        </ul>
        <form
          className="toolbar"
          onSubmit={(e) => {
            e.preventDefault()
            if (newRoot.trim()) addRoot.mutate(newRoot.trim())
          }}
        >
          <input
            className="input grow"
            placeholder={t('settings.rootPlaceholder')}
            aria-label={t('settings.rootPlaceholder')}
            value={newRoot}
            onChange={(e) => {
              setNewRoot(e.target.value)
              if (addRoot.error) addRoot.reset()
            }}
            aria-invalid={!!addRoot.error}
            aria-describedby={addRoot.error ? 'root-input-problem' : undefined}
            data-testid="root-input"
          />
          <button type="submit" className="btn" disabled={!newRoot.trim() || addRoot.isPending}>
            {t('settings.add')}
          </button>
        </form>
        {addRoot.error && (
          <div id="root-input-problem" data-testid="root-input-problem">
            <ErrorNotice error={addRoot.error} action="failed.addRoot" />
          </div>
        )}
        {roots.data
          ?.filter((r) => r.problem === 'library' || r.problem === 'bundled-sample' || (r.path === added && r.problem && r.problem !== 'no-tasks'))
          .map((r) => (
            <RootProblemNotice key={r.path} root={r} inSettings />
          ))}
        {rememberRoot.error && <ErrorNotice error={rememberRoot.error} action="failed.addRoot" />}
        {removeRoot.error && <ErrorNotice error={removeRoot.error} action="failed.removeRoot" />}
      </section>

      <section className="panel">
        <h2>{t('settings.libraries')}</h2>
        <ul className="root-list" data-testid="settings-libraries">
          {libraries.data?.map((l) => (
            <li key={l.path}>
              <span className="strong">{l.label}</span>
              <code className="break muted">{l.path}</code>
              {!l.exists && <Badge tone="muted">{t('settings.notCreatedYet')}</Badge>}
            </li>
          ))}
        </ul>
        <form
          className="toolbar"
          onSubmit={(e) => {
            e.preventDefault()
            if (folder.trim()) openFolder.mutate(folder.trim())
          }}
        >
          <input
            className="input grow"
            placeholder={t('settings.folderPlaceholder')}
            aria-label={t('settings.folderPlaceholder')}
            value={folder}
            onChange={(e) => {
              setFolder(e.target.value)
              if (openFolder.error) openFolder.reset()
            }}
            aria-invalid={!!openFolder.error}
            aria-describedby={openFolder.error ? 'folder-input-problem' : undefined}
            data-testid="folder-input"
          />
          <button type="submit" className="btn" disabled={!folder.trim() || openFolder.isPending}>
            {t('settings.openFolder')}
          </button>
        </form>
        {openFolder.error && (
          <div id="folder-input-problem" data-testid="folder-input-problem">
            <ErrorNotice error={openFolder.error} action="failed.openFolder" />
          </div>
        )}
      </section>

      <section className="panel">
        <h2>{t('settings.llm')}</h2>
        <label className="form-row">
          <span className="form-label">{t('settings.provider')}</span>
          <select value={draft.provider} onChange={(e) => set('provider', e.target.value === 'openai' ? 'openai' : 'offline')} data-testid="settings-provider">
            <option value="offline">{t('settings.offline')}</option>
            <option value="openai">{t('settings.openai')}</option>
          </select>
        </label>
        <div className="form-row">
          <label className="form-label" htmlFor="settings-baseurl">
            {t('settings.baseUrl')}
          </label>
          <input
            id="settings-baseurl"
            className="input grow"
            value={draft.baseUrl}
            onChange={(e) => set('baseUrl', e.target.value)}
            data-testid="settings-baseurl"
            aria-invalid={urlBlocks}
            aria-describedby={urlBlocks ? 'settings-baseurl-problem' : undefined}
            placeholder="https://api.openai.com/v1"
          />
          {urlBlocks && (
            <span id="settings-baseurl-problem" className="field-error" data-testid="baseurl-problem">
              {t(`url.${urlProblem!}`, { port: blockedPortOf(draft.baseUrl) ?? '' })}
            </span>
          )}
        </div>
        <label className="form-row">
          <span className="form-label">{t('settings.model')}</span>
          <input className="input" value={draft.model} onChange={(e) => set('model', e.target.value)} />
        </label>
        <NumberField label={t('settings.timeout')} value={draft.timeoutSec} min={1} max={600} step={1} onChange={(v) => set('timeoutSec', v)} />
        <NumberField label={t('settings.concurrency')} value={draft.concurrency} min={1} max={32} step={1} onChange={(v) => set('concurrency', v)} />
        <div className="form-row">
          <span className="form-label">{t('settings.apiKey')}</span>
          <div className="key-box">
            <div>
              {loaded.llm.hasApiKey ? (
                <span data-testid="key-hint">
                  {t('settings.keySet')} <code>{loaded.llm.apiKeyHint}</code>
                </span>
              ) : (
                <span className="muted">{t('settings.keyNotSet')}</span>
              )}
            </div>
            <p className="form-hint" data-testid="key-storage">
              {storage}
            </p>
            <form
              className="toolbar"
              onSubmit={(e) => {
                e.preventDefault()
                if (apiKey) setKey.mutate(apiKey)
              }}
            >
              <input type="password" className="input grow" autoComplete="off" placeholder={t('settings.keyPlaceholder')} aria-label={t('settings.apiKey')} value={apiKey} onChange={(e) => setApiKey(e.target.value)} />
              <button type="submit" className="btn" disabled={!apiKey || setKey.isPending}>
                {t('settings.setKey')}
              </button>
              {loaded.llm.hasApiKey && (
                <button type="button" className="btn" onClick={() => setKey.mutate(null)} disabled={setKey.isPending}>
                  {t('settings.clearKey')}
                </button>
              )}
            </form>
            {setKey.error && <ErrorNotice error={setKey.error} action="failed.storeKey" />}
          </div>
        </div>
        <div className="form-row">
          <span className="form-label" />
          <button type="button" className="btn" data-testid="llm-test" disabled={test.isPending} onClick={() => test.mutate(draft)}>
            {test.isPending ? t('settings.testing') : t('settings.test')}
          </button>
          {test.data && (
            <span className={test.data.ok ? 'ok-text' : 'bad-text'} data-testid="llm-test-result" role="status">
              {test.data.ok ? `✓ ${t('llmTest.ok', { model: test.data.model, ms: test.data.latencyMs })}` : `✗ ${t(`llmTest.${test.data.problem ?? 'other'}`)}`}
              <span className="llm-test-detail">{translateText(test.data.message, lang)}</span>
            </span>
          )}
        </div>
        {test.error && <ErrorNotice error={test.error} action="failed.testConnection" />}
      </section>

      <section className="panel">
        <h2>{t('settings.thresholds')}</h2>
        <NumberField label={t('settings.merge')} value={draft.merge} min={0} max={1} step={0.05} onChange={(v) => set('merge', v)} hint={t('settings.mergeHint')} testId="settings-merge" />
        <NumberField label={t('settings.eps')} value={draft.eps} min={0} max={1} step={0.05} onChange={(v) => set('eps', v)} hint={t('settings.epsHint')} />
        <NumberField label={t('settings.minSamples')} value={draft.minSamples} min={1} max={100} step={1} onChange={(v) => set('minSamples', v)} />
        <NumberField label={t('settings.cleanupDays')} value={draft.cleanupDays} min={0} max={36500} step={1} onChange={(v) => set('cleanupDays', v)} hint={t('settings.cleanupHint')} />
      </section>

      <section className="panel">
        <h2>{t('settings.behaviour')}</h2>
        <label className="check-row">
          <input type="checkbox" checked={draft.enableLongTermMemory} onChange={(e) => set('enableLongTermMemory', e.target.checked)} data-testid="settings-ltm" />
          <span>
            <code>enable_long_term_memory</code> — {t('settings.ltmHint')}
          </span>
        </label>
        <label className="check-row">
          <input type="checkbox" checked={draft.autoEnhance} onChange={(e) => set('autoEnhance', e.target.checked)} data-testid="settings-autoenhance" />
          <span>{t('settings.autoEnhance')}</span>
        </label>
        {draft.autoEnhance && (
          <p className="banner banner-warn" role="note">
            {t('settings.autoEnhanceWarn')}
          </p>
        )}
        <label className="form-row">
          <span className="form-label">{t('shell.language')}</span>
          <select value={lang} onChange={(e) => setLang(e.target.value === 'zh' ? 'zh' : 'en')}>
            <option value="en">English</option>
            <option value="zh">简体中文</option>
          </select>
        </label>
      </section>
      {info.data && (
        <p className="muted small">
          Skillbench {info.data.version} · {info.data.transport} · {info.data.platform} · {info.data.settingsPath}
        </p>
      )}
    </section>
  )
}

import { useEffect, useRef, useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { DeployResult } from '../../../shared/api-deploy'
import { useApi } from '../../api/context'
import { queryKeys } from '../../api/query-keys'
import { useAppState } from '../../app-state'
import { Badge } from '../../components/Badge'
import { ErrorNotice } from '../../components/ErrorNotice'
import { NoLibrary } from '../../components/NoLibrary'
import { useI18n } from '../../i18n/i18n'
import type { MessageKey } from '../../i18n/messages'
import { DisabledAndBudget, ProfilePicker, ProfilesEditor } from './SelectionPanel'
import { DeployName } from './DeployName'
import { CUSTOM_KINDS, customSpec, DEPLOY_PAGE, filesSummary, hasWork, shownRows, STATE_TONE, stateCounts, stateOf, targetLabel, type CustomKind } from './deploy-view'
import { MoreRows } from './MoreRows'
import { DeployConfirm } from './DeployConfirm'
import { useFocusSoon } from '../../components/focus-soon'
import '../../styles/deploy.css'
import { useRememberedState } from '../../remembered-state'

const deployKey = (library: string, spec: string): readonly unknown[] => [...queryKeys.library(library), 'deploy', spec]
/** A dry run this recent is shown as it is (Preview, a deploy and file events read it again at once). */
const PREVIEW_FRESH_MS = 5000

/** Deploy view: pick an agent, see exactly what a deploy would do (the dry run) and each skill's status, deploy, undo. */
export function DeployScreen(): React.JSX.Element {
  const { t } = useI18n()
  const api = useApi()
  const client = useQueryClient()
  const { library, navigate } = useAppState()
  const lib = library ?? ''
  const [choice, setChoice] = useRememberedState('deploy.target', 'claude')
  const [folder, setFolder] = useRememberedState('deploy.folder', '')
  // a deploy's result (and its undo) belongs to the library it deployed: another library's screen never shows it
  const [doneIn, setDone] = useState<{ library: string; result: DeployResult } | null>(null)
  const [undoneIn, setUndone] = useState<string | null>(null)
  const done = doneIn && doneIn.library === lib ? doneIn.result : null
  const undone = undoneIn !== null && undoneIn === lib
  // the library shown now, for a deploy that ends after another was picked (its result is not focused then)
  const libRef = useRef(lib)
  useEffect(() => {
    libRef.current = lib
  }, [lib])
  const [profile, setProfile] = useState('')
  const [confirming, setConfirming] = useState(false)
  const focusSoon = useFocusSoon()
  const libraries = useQuery({ queryKey: queryKeys.libraries(), queryFn: () => api.call('libraries.list', {}) })
  const sample = !!libraries.data?.find((l) => l.path === library)?.sample
  const targets = useQuery({ queryKey: [...queryKeys.library(lib), 'deploy-targets'], queryFn: () => api.call('deploy.targets', { library: lib }), enabled: !!library })
  const custom = (CUSTOM_KINDS as readonly string[]).includes(choice) ? (choice as CustomKind) : null
  const spec = custom ? customSpec(custom, folder) : choice
  const config = useQuery({ queryKey: [...queryKeys.library(lib), 'deploy-config'], queryFn: () => api.call('deploy.config', { library: lib }), enabled: !!library })
  const chosenProfile = profile && config.data?.profiles[profile] ? profile : undefined
  const preview = useQuery({
    // without a profile the same key as the target's status badge: one dry run serves both
    queryKey: chosenProfile ? [...deployKey(lib, spec ?? ''), chosenProfile] : deployKey(lib, spec ?? ''),
    queryFn: () => api.call('deploy.preview', { library: lib, to: spec!, ...(chosenProfile ? { profile: chosenProfile } : {}) }),
    enabled: !!library && !!spec,
    staleTime: PREVIEW_FRESH_MS
  })
  // the table's first rows, more on request; asked again from one page for another target or profile
  const pageKey = `${lib}\u0000${spec ?? ''}\u0000${chosenProfile ?? ''}`
  const [asked, setAsked] = useState({ key: pageKey, n: DEPLOY_PAGE })
  const askedRows = asked.key === pageKey ? asked.n : DEPLOY_PAGE
  const undo = useMutation({
    mutationFn: (v: { library: string; entryId: string }) => api.call('curate.undo', { library: v.library, entryId: v.entryId }),
    onSuccess: (_answer, v) => {
      setUndone(v.library)
      void client.invalidateQueries({ queryKey: queryKeys.library(v.library) })
    }
  })
  const run = useMutation({
    mutationFn: (library: string) => api.call('deploy.run', { library, to: spec!, ...(chosenProfile ? { profile: chosenProfile } : {}) }),
    onSuccess: (result, library) => {
      setDone({ library, result })
      setUndone(null)
      undo.reset()
      // the keyboard lands on the result and its Undo, not on the page body (Deploy disables itself while busy)
      if (library === libRef.current) focusSoon(result.journal_id ? 'deploy-undo' : 'deploy-done')
      void client.invalidateQueries({ queryKey: queryKeys.library(library) })
    }
  })
  // Deploy asks first: the dry run's counts per folder, read again when not fresh, then the write on confirmation
  const askToDeploy = (): void => {
    setConfirming(true)
    if (Date.now() - preview.dataUpdatedAt > PREVIEW_FRESH_MS) void preview.refetch()
  }
  const confirmDeploy = (): void => {
    setConfirming(false)
    run.mutate(lib)
  }

  const setEnabled = useMutation({
    mutationFn: (v: { skills: string[]; enabled: boolean }) => api.call('deploy.setEnabled', { library: lib, to: spec!, skills: v.skills, enabled: v.enabled }),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.library(lib) })
  })
  const saveProfile = useMutation({
    mutationFn: (v: { name: string; profile: { targets: string[]; skills: string[]; except: string[] } | null }) => api.call('deploy.setProfile', { library: lib, name: v.name, profile: v.profile }),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.library(lib) })
  })

  if (!library) return <NoLibrary title="deploy.title" titleId="deploy-title" text="deploy.noLibrary" />
  const result = preview.data
  const counts = result ? stateCounts(result) : null
  const shown = result ? shownRows(result.skills.length, askedRows) : 0
  return (
    <section className="screen" aria-labelledby="deploy-title">
      <header className="screen-header">
        <h1 id="deploy-title">{t('deploy.title')}</h1>
      </header>
      <p className="lead">{t('deploy.lead')}</p>
      {targets.error && <ErrorNotice error={targets.error} action="failed.loadTargets" onRetry={() => void targets.refetch()} />}
      <fieldset className="deploy-targets panel" data-testid="deploy-targets">
        <legend>{t('deploy.target')}</legend>
        {(targets.data ?? []).map((target) => (
          <label key={target.spec} className="deploy-target">
            <input type="radio" name="deploy-target" value={target.spec} checked={choice === target.spec} onChange={() => setChoice(target.spec)} data-testid={`deploy-target-${target.spec}`} />
            <span className="strong">{targetLabel(t, target)}</span>
            <code className="muted small break">{target.dir}</code>
            {target.exists ? <TargetStatus library={lib} spec={target.spec} /> : <Badge tone="muted">{t('deploy.targetMissing')}</Badge>}
          </label>
        ))}
        {CUSTOM_KINDS.map((kind) => (
          <label key={kind} className="deploy-target">
            <input type="radio" name="deploy-target" value={kind} checked={choice === kind} onChange={() => setChoice(kind)} data-testid={`deploy-target-${kind}`} />
            <span>{t(`deploy.custom.${kind}` as MessageKey)}</span>
          </label>
        ))}
        {custom && (
          <label className="deploy-folder">
            <span>{t(custom === 'folder' ? 'deploy.folder' : 'deploy.projectFolder')}</span>
            <input className="input grow" value={folder} placeholder={t('deploy.folderHint')} onChange={(e) => setFolder(e.target.value)} data-testid="deploy-folder" spellCheck={false} />
          </label>
        )}
      </fieldset>
      <ProfilePicker config={config.data} value={chosenProfile ?? ''} onChange={setProfile} />
      <div className="toolbar">
        <button type="button" className="btn" onClick={() => void preview.refetch()} disabled={!spec || preview.isFetching} data-testid="deploy-preview">
          {preview.isFetching ? t('deploy.previewing') : t('deploy.previewAction')}
        </button>
        <button type="button" className="btn btn-primary" onClick={askToDeploy} disabled={!result || run.isPending || !hasWork(result)} aria-haspopup="dialog" data-testid="deploy-run">
          {run.isPending ? t('deploy.running') : t('deploy.run')}
        </button>
        {result && <span className="muted small">{t('deploy.into', { dir: result.target.dir })}</span>}
      </div>
      {preview.error && <ErrorNotice error={preview.error} action="failed.deployPreview" onRetry={() => void preview.refetch()} />}
      {/* a failed deploy or undo is said on its own library's screen only */}
      {run.error && run.variables === lib && <ErrorNotice error={run.error} action="failed.deploy" />}
      {undo.error && undo.variables?.library === lib && <ErrorNotice error={undo.error} action="failed.undoDeploy" />}
      {setEnabled.error && <ErrorNotice error={setEnabled.error} action="failed.setEnabled" />}
      {done && (
        <div className="banner banner-ok deploy-done" role="status" tabIndex={-1} data-testid="deploy-done">
          <span>
            {undone
              ? t('deploy.undone')
              : done.journal_id
                ? t('deploy.done', { written: done.counts.written, updated: done.counts.updated, removed: done.counts.removed })
                : t('deploy.doneNothing')}
            {done.proposals.some((p) => !p.queued) && !undone && ` ${t('deploy.offered', { n: done.proposals.filter((p) => !p.queued).length })}`}
            {done.journal_id && !undone && <span data-testid="deploy-undo-where">{` ${t('deploy.undoWhere')}`}</span>}
          </span>
          {done.journal_id && !undone && (
            <>
              <button type="button" className="btn btn-small" onClick={() => undo.mutate({ library: lib, entryId: done.journal_id! })} disabled={undo.isPending} data-testid="deploy-undo">
                {t('deploy.undo')}
              </button>
              <button type="button" className="link small" onClick={() => navigate({ screen: 'curate', tab: 'history' })} data-testid="deploy-history">
                {t('deploy.openHistory')}
              </button>
            </>
          )}
          {done.proposals.some((p) => !p.queued) && (
            <button type="button" className="btn btn-small" onClick={() => navigate({ screen: 'curate' })}>
              {t('deploy.review')}
            </button>
          )}
        </div>
      )}
      {result && counts && (
        <>
          <p className="deploy-summary" data-testid="deploy-summary">
            {t('deploy.summary', { inSync: counts.inSync, drifted: counts.drifted, notDeployed: counts.notDeployed, outdated: counts.outdated, retired: counts.retired })}
          </p>
          <BudgetMeter result={result} />
          <DisabledAndBudget result={result} busy={setEnabled.isPending} onSet={(skills, enabled) => setEnabled.mutate({ skills, enabled })} />
          {result.proposals.some((p) => !p.queued) && (
            <p className="banner banner-warn" data-testid="deploy-offered">
              {t(result.dryRun ? 'deploy.willOffer' : 'deploy.offered', { n: result.proposals.filter((p) => !p.queued).length })}
            </p>
          )}
          {result.skills.length === 0 ? (
            <p className="empty">{t('deploy.nothingToDo')}</p>
          ) : (
            <table className="deploy-table" data-testid="deploy-table">
              <caption className="sr-only">{t('deploy.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('deploy.col.skill')}</th>
                  <th scope="col">{t('deploy.col.state')}</th>
                  <th scope="col">{t('deploy.col.files')}</th>
                  <th scope="col">{t('deploySel.col.show')}</th>
                </tr>
              </thead>
              <tbody>
                {result.skills.slice(0, shown).map((s) => {
                  const state = stateOf(s.action)
                  return (
                    <tr key={s.name} data-testid="deploy-row" data-action={s.action}>
                      <th scope="row">
                        <div className="deploy-name">
                          <DeployName name={s.name} className="strong" />
                          {s.title && s.title !== s.name && <span className="cell-sub">{s.title}</span>}
                        </div>
                      </th>
                      <td>
                        {s.action === 'remove' && result.disabled?.includes(s.name) ? (
                          <Badge tone={STATE_TONE[state]}>{t('deploySel.state.disabled')}</Badge>
                        ) : s.action === 'remove' && result.left_out?.includes(s.name) ? (
                          <Badge tone={STATE_TONE[state]}>{t('deploySel.state.leftOut')}</Badge>
                        ) : (
                          <Badge tone={STATE_TONE[state]}>{t(`deploy.state.${s.action}` as MessageKey)}</Badge>
                        )}
                        {s.proposal &&
                          (result.dryRun && !s.proposalQueued ? (
                            <span className="small muted deploy-offered-link">{t('deploy.willOfferOne')}</span>
                          ) : (
                            <button type="button" className="link small deploy-offered-link" onClick={() => navigate({ screen: 'curate' })}>
                              {t('deploy.offeredOne')}
                            </button>
                          ))}
                      </td>
                      <td>
                        <code className="small break">{filesSummary(s.files)}</code>
                        {s.why && <span className="cell-sub deploy-reason">{t(`deploy.why.${s.why}` as MessageKey)}</span>}
                      </td>
                      <td>
                        {s.skill_id && s.action !== 'remove' && s.action !== 'forget' && s.action !== 'unmanaged' && s.action !== 'refused' && (
                          <button type="button" className="btn btn-small" disabled={setEnabled.isPending} onClick={() => setEnabled.mutate({ skills: [s.name], enabled: false })} aria-label={t('deploySel.disableOne', { name: s.name })} data-testid={`deploy-disable-${s.name}`}>
                            {t('deploySel.disable')}
                          </button>
                        )}
                      </td>
                    </tr>
                  )
                })}
              </tbody>
            </table>
          )}
          <MoreRows shown={shown} total={result.skills.length} onShow={(n) => setAsked({ key: pageKey, n })} />
          {result.warnings.length > 0 && (
            <details className="deploy-warnings">
              <summary>{t('deploy.warnings')}</summary>
              <ul>
                {result.warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            </details>
          )}
        </>
      )}
      {confirming && result && <DeployConfirm plans={[result]} sample={sample} checking={preview.isFetching} nothing={!hasWork(result)} onConfirm={confirmDeploy} onCancel={() => setConfirming(false)} />}
      <ProfilesEditor config={config.data} busy={saveProfile.isPending} error={saveProfile.error} onSave={(name, p) => saveProfile.mutate({ name, profile: p })} />
    </section>
  )
}

/** A target's status at a glance (its dry run, shared with the preview when it is the chosen one). */
function TargetStatus(props: { library: string; spec: string }): React.JSX.Element {
  const { t } = useI18n()
  const api = useApi()
  const status = useQuery({ queryKey: deployKey(props.library, props.spec), queryFn: () => api.call('deploy.preview', { library: props.library, to: props.spec }), staleTime: PREVIEW_FRESH_MS })
  if (!status.data) return <Badge tone="muted">{t('deploy.targetExists')}</Badge>
  const c = stateCounts(status.data)
  const tone = c.drifted > 0 ? 'warn' : c.notDeployed + c.outdated + c.retired > 0 ? 'info' : 'ok'
  return (
    <span data-testid={`deploy-target-status-${props.spec}`}>
      <Badge tone={tone}>{t('deploy.targetStatus', { inSync: c.inSync, drifted: c.drifted, notDeployed: c.notDeployed + c.outdated })}</Badge>
    </span>
  )
}

/** The skill metadata the agent will list, against its documented budget. */
function BudgetMeter(props: { result: DeployResult }): React.JSX.Element {
  const { t } = useI18n()
  const b = props.result.budget
  return (
    <div className={`deploy-budget deploy-budget-${b.level}`} data-testid="deploy-budget" data-level={b.level}>
      {b.limit === null ? (
        <span>{t('deploy.budgetNone', { chars: b.chars })}</span>
      ) : (
        <>
          <label className="deploy-budget-row">
            <span>{t('deploy.budget', { chars: b.chars, limit: b.limit, percent: b.percent ?? 0 })}</span>
            <meter min={0} max={b.limit} low={b.limit * 0.8} high={b.limit} optimum={0} value={Math.min(b.chars, b.limit)} aria-label={t('deploy.budgetLabel')} />
          </label>
          {b.level === 'warn' && <span className="deploy-budget-note">{t('deploy.budgetWarn')}</span>}
          {b.level === 'over' && <span className="deploy-budget-note">{t('deploy.budgetOver')}</span>}
        </>
      )}
    </div>
  )
}

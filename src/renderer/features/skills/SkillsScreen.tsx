import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { SkillSummary } from '../../../shared/api'
import { useApi } from '../../api/context'
import { queryKeys } from '../../api/query-keys'
import { useAppState } from '../../app-state'
import { Badge } from '../../components/Badge'
import { ErrorNotice } from '../../components/ErrorNotice'
import { NoLibrary } from '../../components/NoLibrary'
import { formatDate, formatQuality } from '../../components/format'
import { VirtualList } from '../../components/VirtualList'
import { useI18n } from '../../i18n/i18n'
import { translateLine } from '../../i18n/messages-errors'
import { DEFAULT_FILTER, filterSkills } from './skill-filter'
import { InstallFromGitButton } from '../sources/InstallFromGit'
import { SkillUsageCell } from '../usage/SkillUsageCell'
import { latestUse } from '../usage/usage-format'
import { useUsage } from '../usage/use-usage'
import type { SkillFilter, SkillSortKey } from './skill-filter'

type Row = SkillSummary & { similarity?: number }

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return debounced
}

/** Every skill of the selected library: filter, sort, full-text search, legacy + restore. */
export function SkillsScreen(): React.JSX.Element {
  const { t, lang } = useI18n()
  const api = useApi()
  const client = useQueryClient()
  const { library, navigate, route } = useAppState()
  const [activeRow, setActiveRow] = useState<Row | null>(null)
  const [filter, setFilter] = useState<SkillFilter>(DEFAULT_FILTER)
  const [search, setSearch] = useState('')
  const searchText = useDebounced(search.trim(), 250)
  const list = useQuery({
    queryKey: queryKeys.skills(library ?? ''),
    queryFn: () => api.call('skills.list', { library: library!, includeLegacy: true }),
    enabled: !!library
  })
  const ranked = useQuery({
    queryKey: queryKeys.query(library ?? '', searchText),
    queryFn: () => api.call('skills.query', { library: library!, text: searchText, top: 100 }),
    enabled: !!library && searchText.length >= 2
  })
  /** The last restore, said with an Undo (which retires the skill again) until the next one. */
  const [restored, setRestored] = useState<{ skillId: string; title: string; path: string } | null>(null)
  const undoButton = useRef<HTMLButtonElement>(null)
  const restore = useMutation({
    mutationFn: (row: Row) => api.call('skills.restore', { library: library!, skillId: row.skill_id }),
    onSuccess: (doc, row) => {
      setRestored({ skillId: row.skill_id, title: row.title || row.skill_id, path: doc.skill.path })
      return client.invalidateQueries({ queryKey: queryKeys.library(library!) })
    }
  })
  // what recovery did is kept in the library until dismissed (up to the offset shown: later recoveries stay)
  const dismissProblems = useMutation({
    mutationFn: (upTo: number) => api.call('skills.dismissProblems', { library: library!, upTo }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.skills(library!) })
  })
  const undoRestore = useMutation({
    mutationFn: (skillId: string) => api.call('skills.delete', { library: library!, skillId }),
    onSuccess: () => {
      setRestored(null)
      return client.invalidateQueries({ queryKey: queryKeys.library(library!) })
    }
  })
  // focus goes to the result's next action (Undo), not back to the page
  useEffect(() => {
    if (restored) undoButton.current?.focus()
  }, [restored])
  const deferredFilter = useDeferredValue(filter)
  const usage = useUsage(library)
  // files loaded with a value read by default (`quality_index: high`): named as `skillbench validate` names them
  const warnedSkills = useMemo(() => (list.data?.skills ?? []).filter((s) => (s.load_warnings?.length ?? 0) > 0), [list.data])
  const usageById = useMemo(() => new Map((usage.data?.skills ?? []).map((u) => [u.skill_id, u])), [usage.data])

  const rows: Row[] = useMemo(() => {
    const all = list.data?.skills ?? []
    if (searchText.length >= 2 && ranked.data) {
      const byId = new Map(all.map((s) => [s.skill_id, s]))
      const out: Row[] = []
      // a skill sharing no term with the search scores 0: that is no match, not a result
      for (const hit of ranked.data.skills) {
        const summary = byId.get(hit.skill_id)
        if (summary && hit.similarity_score > 0) out.push({ ...summary, similarity: hit.similarity_score })
      }
      return out
    }
    return filterSkills(all, deferredFilter)
  }, [list.data, ranked.data, searchText, deferredFilter])

  const set = <K extends keyof SkillFilter>(key: K, value: SkillFilter[K]): void => setFilter((f) => ({ ...f, [key]: value }))
  const open = (row: Row): void => {
    if (library) navigate({ screen: 'editor', library, skillId: row.skill_id, focus: true })
  }
  const selectedLegacy = activeRow && activeRow.legacy && rows.includes(activeRow) ? activeRow : null

  if (!library) return <Empty />
  return (
    <section className="screen screen-fill" aria-labelledby="skills-title">
      <header className="screen-header">
        <h1 id="skills-title">{t('skills.title')}</h1>
        <span className="muted" data-testid="skill-count">
          {t('skills.count', { shown: rows.length, total: list.data?.skills.length ?? 0 })}
        </span>
        <div className="spacer" />
        <InstallFromGitButton library={library} />
      </header>
      <div className="toolbar" role="search">
        <input
          type="search"
          className="input grow"
          // short enough to show whole in a narrow window; the full sentence is its name and tooltip
          placeholder={t('skills.searchPlaceholder')}
          aria-label={t('skills.searchLabel')}
          title={t('skills.searchLabel')}
          data-testid="skill-search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <label className="field-inline">
          {t('skills.sort')}
          <select data-testid="skill-sort" value={filter.sort} onChange={(e) => set('sort', e.target.value as SkillSortKey)} disabled={searchText.length >= 2}>
            <option value="quality">{t('skills.col.quality')}</option>
            <option value="fetch">{t('skills.col.fetch')}</option>
            <option value="lastUsed">{t('skills.col.lastUsed')}</option>
            <option value="created">{t('skills.col.created')}</option>
            <option value="title">{t('skills.col.title')}</option>
          </select>
        </label>
        <button type="button" className="btn btn-icon" aria-label={filter.descending ? t('skills.descending') : t('skills.ascending')} title={filter.descending ? t('skills.descending') : t('skills.ascending')} onClick={() => set('descending', !filter.descending)}>
          {filter.descending ? '↓' : '↑'}
        </button>
        <label className="field-inline">
          {t('skills.format')}
          <select value={filter.format} onChange={(e) => set('format', e.target.value as SkillFilter['format'])}>
            <option value="all">{t('common.all')}</option>
            <option value="agiagent">AGIAgent</option>
            <option value="skill-md">SKILL.md</option>
          </select>
        </label>
        <label className="field-inline">
          {t('skills.show')}
          <select data-testid="skill-legacy-filter" value={filter.legacy} onChange={(e) => set('legacy', e.target.value as SkillFilter['legacy'])}>
            <option value="active">{t('skills.active')}</option>
            <option value="legacy">{t('skills.legacy')}</option>
            <option value="all">{t('common.all')}</option>
          </select>
        </label>
        <label className="field-inline">
          {t('skills.minQuality')}
          <input type="number" className="input num" min={0} max={1} step={0.1} value={filter.minQuality} onChange={(e) => set('minQuality', Math.max(0, Math.min(1, Number(e.target.value) || 0)))} />
        </label>
      </div>
      {list.error && <ErrorNotice error={list.error} action="failed.listSkills" onRetry={() => void list.refetch()} />}
      {ranked.error && <ErrorNotice error={ranked.error} action="failed.search" />}
      {restore.error && <ErrorNotice error={restore.error} action="failed.restoreSkill" />}
      {undoRestore.error && <ErrorNotice error={undoRestore.error} action="failed.retireSkill" />}
      {restored && (
        <div className="banner banner-ok" role="status" data-testid="restored-banner">
          <span>{t('skills.restored', { title: restored.title, path: restored.path })}</span>
          <button type="button" ref={undoButton} className="btn btn-small" data-testid="restore-undo" disabled={undoRestore.isPending} onClick={() => undoRestore.mutate(restored.skillId)}>
            {t('curate.undo')}
          </button>
        </div>
      )}
      {usage.error && <ErrorNotice error={usage.error} action="usage.failedLoad" onRetry={() => void usage.refetch()} />}
      {(list.data?.problems?.length ?? 0) > 0 && (
        // the library as a whole (by code): what recoveries did, a change still interrupted, index.json not updated
        <div className="banner banner-warn library-problems" role="status" data-testid="library-problems">
          <strong>{t('skills.problems')}</strong>
          <ul>
            {list.data!.problems!.map((p, i) => (
              <li key={i} data-testid="library-problem">
                {translateLine(p, p.message, lang)}
              </li>
            ))}
          </ul>
          {list.data!.problemsDismissUpTo !== undefined && (
            <button type="button" className="btn btn-small" data-testid="library-problems-dismiss" disabled={dismissProblems.isPending} onClick={() => dismissProblems.mutate(list.data!.problemsDismissUpTo!)}>
              {t('skills.problemsDismiss')}
            </button>
          )}
        </div>
      )}
      {dismissProblems.error && <ErrorNotice error={dismissProblems.error} action="failed.dismissProblems" />}
      {(list.data?.errors.length ?? 0) > 0 && (
        <details className="load-errors" open={route.screen === 'skills' && route.showErrors ? true : undefined} data-testid="load-errors">
          <summary>{t('skills.loadErrors', { n: list.data!.errors.length })}</summary>
          <p className="muted small">{t('skills.loadErrorsHelp')}</p>
          <ul>
            {list.data!.errors.map((e) => (
              <li key={e.path}>
                <button type="button" className="link" data-testid="load-error-open" onClick={() => navigate({ screen: 'file', library, path: e.path })}>
                  <code>{e.path}</code>
                </button>{' '}
                — {translateLine(e, e.reason, lang)}
              </li>
            ))}
          </ul>
        </details>
      )}
      {warnedSkills.length > 0 && (
        <details className="load-errors" data-testid="load-warnings">
          <summary>{t('skills.loadWarnings', { n: warnedSkills.length })}</summary>
          <p className="muted small">{t('skills.loadWarningsHelp')}</p>
          <ul>
            {warnedSkills.flatMap((s) =>
              (s.load_warnings ?? []).map((w, i) => (
                <li key={`${s.path}#${i}`}>
                  <button type="button" className="link" data-testid="load-warning-open" onClick={() => navigate({ screen: 'editor', library, skillId: s.skill_id })}>
                    <code>{s.path}</code>
                  </button>{' '}
                  — {translateLine(w, w.reason, lang)}
                </li>
              ))
            )}
          </ul>
        </details>
      )}
      {selectedLegacy && (
        <div className="toolbar">
          <span className="muted">{t('skills.legacySelected', { title: selectedLegacy.title || selectedLegacy.skill_id })}</span>
          <button type="button" className="btn btn-small" data-testid="skill-restore" disabled={restore.isPending} onClick={() => restore.mutate(selectedLegacy)}>
            {t('skills.restore')}
          </button>
        </div>
      )}
      <div className="list-head skill-grid" aria-hidden="true">
        <span>{t('skills.col.title')}</span>
        <span>{searchText.length >= 2 ? t('skills.col.similarity') : t('skills.col.quality')}</span>
        <span>{t('skills.col.fetch')}</span>
        <span>{t('skills.col.lastUsed')}</span>
        <span>{t('usage.col')}</span>
        <span>{t('skills.col.created')}</span>
        <span className="head-badges">{t('skills.format')}</span>
      </div>
      {list.isLoading ? (
        <p className="muted">{t('common.loading')}</p>
      ) : rows.length === 0 ? (
        (list.data?.skills.length ?? 0) === 0 && searchText.length < 2 ? (
          <div className="empty" data-testid="skills-empty">
            <p>{t('skills.libraryEmpty')}</p>
            <div className="toolbar">
              <InstallFromGitButton library={library} />
              <button type="button" className="btn" onClick={() => navigate({ screen: 'reflect' })}>
                {t('nav.reflect')}
              </button>
            </div>
          </div>
        ) : (
          <p className="empty" data-testid="skills-empty">
            {searchText.length >= 2 ? (ranked.isLoading ? t('common.loading') : t('skills.noMatches', { query: searchText })) : t('skills.none')}
          </p>
        )
      ) : (
        <VirtualList
          items={rows}
          rowHeight={52}
          getKey={(s) => `${s.legacy ? 'L' : 'A'}:${s.path}`}
          ariaLabel={t('skills.title')}
          testId="skill-list"
          rowTestId="skill-row"
          onOpen={open}
          onActiveChange={(s) => setActiveRow(s)}
          renderRow={(s, _i, active) => (
            <div className="skill-grid skill-row">
              <span className="cell-title">
                <span className="cell-name" data-testid="skill-open" onClick={() => open(s)}>
                  {s.title || s.skill_id}
                </span>
                <span className="cell-sub">{s.usage_conditions || s.preview}</span>
              </span>
              <span>
                {s.similarity !== undefined ? (
                  <span data-testid="skill-similarity">{s.similarity.toFixed(3)}</span>
                ) : (
                  <span className="quality">
                    <span className="quality-track">
                      <span className="quality-bar" style={{ width: `${Math.round(s.quality_index * 100)}%` }} />
                    </span>
                    <span>{formatQuality(s.quality_index)}</span>
                  </span>
                )}
              </span>
              <span>{s.fetch_count}</span>
              <span className="cell-date" data-testid="skill-last-used">{formatDate(latestUse(s.last_used_at, usageById.get(s.skill_id)), lang)}</span>
              {s.legacy ? <span /> : <SkillUsageCell usage={usageById.get(s.skill_id)} fetches={s} loading={usage.isLoading} failed={usage.isError} />}
              <span className="cell-date">{formatDate(s.created_at, lang)}</span>
              <span className="cell-badges">
                <Badge tone="muted">{s.format === 'skill-md' ? 'SKILL.md' : 'AGIAgent'}</Badge>
                {s.legacy && <Badge tone="warn">{t('skills.legacyBadge')}</Badge>}
                {s.legacy && active && (
                  // on the row for the pointer; keyboard users have the same action in the bar above the list
                  // (a button inside a list option would be a nested control)
                  <span className="row-action" aria-hidden="true" data-testid="row-restore" onClick={(e) => (e.stopPropagation(), restore.mutate(s))}>
                    {t('skills.restore')}
                  </span>
                )}
              </span>
            </div>
          )}
        />
      )}
    </section>
  )
}

function Empty(): React.JSX.Element {
  return <NoLibrary title="skills.title" />
}

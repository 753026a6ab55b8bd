import { useEffect } from 'react'
import { useQuery } from '@tanstack/react-query'
import type { UseQueryResult } from '@tanstack/react-query'
import type { DataRootInfo, LibraryInfo } from '../../shared/api'
import { useAppState } from '../app-state'
import { useApi } from './context'
import { queryKeys } from './query-keys'

/** Known libraries; picks the first one when none (or a vanished one) is selected. */
export function useLibraries(): UseQueryResult<LibraryInfo[]> {
  const api = useApi()
  const { library, setLibrary } = useAppState()
  const query = useQuery({ queryKey: queryKeys.libraries(), queryFn: () => api.call('libraries.list', {}) })
  const list = query.data
  useEffect(() => {
    if (!list) return
    if (list.length === 0) {
      if (library !== null) setLibrary(null)
    } else if (!library || !list.some((l) => l.path === library)) setLibrary((list.find((l) => l.exists) ?? list[0]!).path)
  }, [list, library, setLibrary])
  return query
}

/** Known data roots; picks the first one when none is selected. */
export function useRoots(): UseQueryResult<DataRootInfo[]> {
  const api = useApi()
  const { root, setRoot } = useAppState()
  const query = useQuery({ queryKey: queryKeys.roots(), queryFn: () => api.call('roots.list', {}) })
  const list = query.data
  useEffect(() => {
    if (!list) return
    if (list.length === 0) {
      if (root !== null) setRoot(null)
    } else if (!root || !list.some((r) => r.path === root)) setRoot(list[0]!.path)
  }, [list, root, setRoot])
  return query
}

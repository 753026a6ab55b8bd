import { useQuery } from '@tanstack/react-query'
import type { UseQueryResult } from '@tanstack/react-query'
import type { UsageReport } from '../../../shared/types'
import { useApi } from '../../api/context'
import { queryKeys } from '../../api/query-keys'

/** The library's usage report (one request shared by the Skills list, the editor and the Overview). */
export function useUsage(library: string | null | undefined): UseQueryResult<UsageReport> {
  const api = useApi()
  return useQuery({
    queryKey: queryKeys.usage(library ?? ''),
    queryFn: () => api.call('usage.get', { library: library! }),
    enabled: !!library,
    // reading every agent's logs is the slow part: a few seconds old is fresh enough while moving between screens
    staleTime: 15_000
  })
}

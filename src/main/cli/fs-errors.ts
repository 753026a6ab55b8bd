import { CodedError, codedFieldsOf } from '../../shared/api-error'
import { coded } from '../../shared/error-codes'

/**
 * A file system error that escaped a command without words of ours (`import --from` a folder that is not there
 * printed "ENOENT: no such file or directory, realpath '…'"), as a coded error naming the path: said the same way
 * on stderr and in --json's {code, message_code, params}. Undefined for any other error, and for one already coded.
 */
export function codedFsError(err: unknown): CodedError | undefined {
  if (!(err instanceof Error) || codedFieldsOf(err)) return undefined
  const { code, path } = err as NodeJS.ErrnoException
  if (typeof path !== 'string' || path === '') return undefined
  switch (code) {
    case 'ENOENT':
      return new CodedError('not_found', coded('path.not_found', { path }), { cause: err })
    case 'EACCES':
    case 'EPERM':
      return new CodedError('forbidden', coded('path.no_permission', { path }), { cause: err })
    case 'EISDIR':
      return new CodedError('invalid', coded('path.is_folder', { path }), { cause: err })
    default:
      return undefined
  }
}

/**
 * Reading and changing the library's `deploy-profiles.json` (selection.ts says what it holds). Changes are made
 * under the library lock, read fresh inside it, and written atomically, so two processes changing it at once both
 * keep their change; a file that does not parse is reported and never overwritten.
 */
import { readContainedText, writeContained } from '../store/contained'
import { withLibraryLock } from '../store/lock'
import { StoreError } from '../store/types'
import { DEPLOY_CONFIG_FILE, emptyDeployConfig, parseDeployConfig, serializeDeployConfig, type DeployConfig } from './selection'
import { coded } from '../../shared/error-codes'
import { reasonOf } from '../../shared/api-error'

const MAX_BYTES = 4 * 1024 * 1024

function parseOrThrow(text: string): DeployConfig {
  try {
    return parseDeployConfig(text)
  } catch (err) {
    throw new StoreError('invalid_input', coded('deploy.config_invalid', { reason: reasonOf(err) }))
  }
}

/** The library's deploy profiles and disabled skills (empty when it has no file). */
export async function readDeployConfig(root: string): Promise<DeployConfig> {
  const text = await readContainedText(root, DEPLOY_CONFIG_FILE, { maxBytes: MAX_BYTES })
  return text === null ? emptyDeployConfig() : parseOrThrow(text)
}

/** Applies `change` to the file under the library lock; writes only when the text changed. Returns the result. */
export async function changeDeployConfig(root: string, change: (config: DeployConfig) => void, purpose: string): Promise<DeployConfig> {
  return withLibraryLock(
    root,
    async () => {
      const before = await readContainedText(root, DEPLOY_CONFIG_FILE, { maxBytes: MAX_BYTES })
      const config = before === null ? emptyDeployConfig() : parseOrThrow(before)
      change(config)
      const text = serializeDeployConfig(config)
      if (text !== before) await writeContained(root, DEPLOY_CONFIG_FILE, text)
      return config
    },
    { purpose: purpose.slice(0, 80) }
  )
}

import { promises as fsp } from 'node:fs'
import path from 'node:path'
import { writeFileAtomic } from '../store/atomic'

/** How a secret is kept; shown in the settings screen. */
export type KeyStorageKind = 'safeStorage' | 'file-0600' | 'none'

/**
 * Where the main process keeps secrets (the LLM API key). The key never leaves the main process
 * except in the model request's authorization header.
 */
export interface SecretStore {
  readonly kind: KeyStorageKind
  /** Set when secrets cannot be kept safely here (the UI shows it beside the key field). */
  readonly warning?: string
  get(name: string): Promise<string | undefined>
  /** `null` forgets the secret. */
  set(name: string, value: string | null): Promise<void>
}

/** The file of the web-mode secret store, inside the settings dir. */
export const SECRET_FILE = 'secrets.json'

/**
 * Web mode: secrets in `<settingsDir>/secrets.json`, readable by the owner only (0600).
 *
 * Plain text, protected by file permissions only: the settings screen says so (`keyStorage: 'file-0600'`).
 */
export function createFileSecretStore(settingsDir: string): SecretStore {
  const { readAll, writeAll } = secretsFile(path.join(settingsDir, SECRET_FILE))
  return {
    kind: 'file-0600',
    async get(name) {
      const value = (await readAll())[name]
      return typeof value === 'string' && value ? value : undefined
    },
    async set(name, value) {
      const all = await readAll()
      if (value === null || value === '') {
        delete all[name]
      } else {
        all[name] = value
      }
      await writeAll(all)
    }
  }
}

/**
 * A JSON object of secrets (plain or encrypted strings) in one file of the settings dir, owner-only (0600, its
 * folder 0700): read whole (unreadable or malformed reads as empty), written whole and atomically.
 */
export function secretsFile(file: string): { readAll(): Promise<Record<string, string>>; writeAll(all: Record<string, string>): Promise<void> } {
  return {
    async readAll() {
      try {
        const data = JSON.parse(await fsp.readFile(file, 'utf8')) as unknown
        return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, string>) : {}
      } catch {
        return {}
      }
    },
    writeAll: (all) => writeFileAtomic(file, JSON.stringify(all), { mode: 0o600, folderMode: 0o700 })
  }
}

/** Secrets kept for this run only (used when no safe storage exists: nothing reaches the disk). */
export function createMemorySecretStore(warning?: string): SecretStore {
  const values = new Map<string, string>()
  return {
    kind: 'none',
    warning,
    async get(name) {
      return values.get(name)
    },
    async set(name, value) {
      if (value === null || value === '') {
        values.delete(name)
      } else {
        values.set(name, value)
      }
    }
  }
}

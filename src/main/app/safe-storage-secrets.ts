import path from 'node:path'
import { createMemorySecretStore, secretsFile, type SecretStore } from '../workbench/secrets'

/** The part of Electron's `safeStorage` used here (a fake one in tests). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean
  encryptString(plainText: string): Buffer
  decryptString(encrypted: Buffer): string
  getSelectedStorageBackend?(): string
}

/** Encrypted secrets file in the settings dir (ciphertext only, base64). */
export const ENCRYPTED_SECRET_FILE = 'secrets.enc.json'

/**
 * Desktop secrets: encrypted with `safeStorage` (Keychain / DPAPI / libsecret / kwallet) and written to
 * `secrets.enc.json`. When no real encryption is available (Linux `basic_text` backend: a hard-coded
 * password), nothing is written: the key is kept for this run only and the settings screen says so.
 * A ciphertext that no longer decrypts (backend changed) reads as "no key": the user is asked again.
 */
export function createSafeStorageSecretStore(safeStorage: SafeStorageLike, settingsDir: string): SecretStore {
  const backend = safeStorage.getSelectedStorageBackend?.()
  if (!safeStorage.isEncryptionAvailable() || backend === 'basic_text') {
    return createMemorySecretStore(
      'No system keyring is available, so the API key cannot be stored encrypted. It is kept in memory until you quit (enter it again next time), or set OPENAI_API_KEY in the environment.'
    )
  }
  const { readAll, writeAll } = secretsFile(path.join(settingsDir, ENCRYPTED_SECRET_FILE))
  return {
    kind: 'safeStorage',
    async get(name) {
      const cipher = (await readAll())[name]
      if (typeof cipher !== 'string' || !cipher) {
        return undefined
      }
      try {
        return safeStorage.decryptString(Buffer.from(cipher, 'base64')) || undefined
      } catch {
        return undefined
      }
    },
    async set(name, value) {
      const all = await readAll()
      if (value === null || value === '') {
        delete all[name]
      } else {
        all[name] = safeStorage.encryptString(value).toString('base64')
      }
      await writeAll(all)
    }
  }
}

/**
 * Reading a skill's backed-up code (`<library>/codes/task_…/…`) for the read-only viewer: only files under
 * the library's `codes/` folder (symlinks resolved and checked), regular files, the first
 * CODE_FILE_MAX_BYTES bytes. Never writes.
 */
import { promises as fsp } from 'node:fs'
import path from 'node:path'
import { ApiError, CODE_FILE_MAX_BYTES, type CodeFile } from '../../shared/api'
import { coded } from '../../shared/error-codes'
import { badRequest } from './errors'

/** The library-relative path if it names something under `codes/` without escaping, else undefined. Pure. */
export function normaliseCodePath(rel: string): string | undefined {
  if (!rel || rel.includes('\0') || rel.includes('\\') || path.posix.isAbsolute(rel) || /^[A-Za-z]:/.test(rel)) return undefined
  const parts = rel.split('/').filter((p) => p !== '' && p !== '.')
  const skip = parts[0] === '.skillbench' ? 1 : 0 // a SKILL.md library backs code up in .skillbench/codes/
  if (parts.length < 2 + skip || parts[skip] !== 'codes' || parts.some((p) => p === '..')) return undefined
  return parts.join('/')
}

/** Reads a backed-up code file of the library at `libraryRoot`. */
export async function readCodeFile(libraryRoot: string, rel: string, maxBytes = CODE_FILE_MAX_BYTES): Promise<CodeFile> {
  const clean = normaliseCodePath(rel)
  if (!clean) {
    throw badRequest(coded('skill.code_not_under_codes', { path: rel.slice(0, 200) }))
  }
  const codesDir = await fsp.realpath(path.join(libraryRoot, clean.startsWith('.skillbench/') ? '.skillbench/codes' : 'codes')).catch(() => null)
  if (!codesDir) {
    throw new ApiError('not_found', coded('skill.no_code_folder'))
  }
  const real = await fsp.realpath(path.join(libraryRoot, ...clean.split('/'))).catch(() => null)
  if (!real) {
    throw new ApiError('not_found', coded('skill.code_gone', { path: clean }))
  }
  if (!real.startsWith(codesDir + path.sep)) {
    throw new ApiError('forbidden', coded('skill.code_outside', { path: clean }))
  }
  const fh = await fsp.open(real, 'r')
  try {
    const st = await fh.stat()
    if (!st.isFile()) {
      throw badRequest(coded('path.not_file', { path: clean }))
    }
    const length = Math.min(st.size, maxBytes)
    const buf = Buffer.alloc(length)
    let read = 0
    while (read < length) {
      const { bytesRead } = await fh.read(buf, read, length - read, read)
      if (bytesRead === 0) break
      read += bytesRead
    }
    const data = buf.subarray(0, read)
    const binary = data.subarray(0, 8000).includes(0)
    return { path: clean, size: st.size, text: binary ? '' : data.toString('utf8'), truncated: st.size > read, binary }
  } finally {
    await fh.close()
  }
}

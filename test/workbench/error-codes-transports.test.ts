/**
 * An error keeps its code and params on every transport: web mode (HTTP, through the renderer's web client), the
 * CLI's --json output and the MCP server's tool answers. (IPC passes the same dispatch answer: test/app/preload.)
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWebServer, type RunningWebServer } from '../../src/main/web-server/http-server'
import { createWebClient } from '../../src/renderer/api/web-client'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { ApiError } from '../../src/shared/api-error'
import { main } from '../../src/main/cli/index'
import type { CliIo } from '../../src/main/cli/common'
import { createToolAnswerer } from '../../src/main/mcp/tool-answers'
import { openLibrary } from '../../src/main/store/library'
import { copyTree, FIXTURE_LIBRARY } from '../store/helpers'
import { copySampleRoot, tempDir } from './helpers'

let server: RunningWebServer
let library: string

beforeAll(async () => {
  const rendererDir = tempDir('renderer')
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>t</title>')
  server = await startWebServer({ port: 0, rootDir: copySampleRoot(), settingsDir: tempDir('settings'), rendererDir, watch: false })
  library = copyTree(FIXTURE_LIBRARY)
})

afterAll(async () => {
  await server?.close()
  fs.rmSync(library, { recursive: true, force: true })
})

async function runCli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false, cwd: process.cwd(), env: {}, signal: new AbortController().signal }
  const code = await main(argv, io)
  return { code, stdout, stderr }
}

describe('error codes on every transport', () => {
  it('web mode: the HTTP body and the client ApiError carry messageCode and params; the UI words it by code', async () => {
    const missing = path.join(tempDir('gone'), 'nowhere')
    const raw = await fetch(`${server.url}api/roots.add`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-skillbench-token': server.token }, body: JSON.stringify({ path: missing }) })
    expect(raw.status).toBe(400)
    expect((await raw.json()).error).toEqual({ code: 'bad_request', message: `folder not found: ${missing}`, messageCode: 'path.folder_not_found', params: { path: missing } })

    const api = createWebClient({ baseUrl: server.url.replace(/\/$/, ''), token: server.token })
    const err = (await api.call('roots.add', { path: 'relative/dir' }).catch((e: unknown) => e)) as ApiError
    expect(err).toBeInstanceOf(ApiError)
    expect(err).toMatchObject({ code: 'bad_request', messageCode: 'path.not_absolute', params: { path: 'relative/dir' } })
    expect(translateMessage(err, err.message, 'zh')).toBe('请填写绝对路径（收到的是“relative/dir”）')
    // invalid input and unknown methods are coded at the door
    const invalid = (await api.call('skills.get', { library: 42 } as never).catch((e: unknown) => e)) as ApiError
    expect(invalid.messageCode).toBe('api.invalid_input_at')
    expect(invalid.params).toMatchObject({ method: 'skills.get', field: 'library' })
    const unknown = (await api.call('no.such' as never, {} as never).catch((e: unknown) => e)) as ApiError
    expect(unknown).toMatchObject({ code: 'not_found', messageCode: 'api.unknown_method', params: { method: 'no.such' } })
    // an error thrown as words by a lower layer gets its code from the table (store: no such skill)
    const opened = (await api.call('libraries.open', { path: library })).find((l) => l.path === fs.realpathSync(library))!
    const noSkill = (await api.call('skills.get', { library: opened.path, skillId: '424242' }).catch((e: unknown) => e)) as ApiError
    expect(noSkill).toMatchObject({ code: 'not_found', messageCode: 'skill.no_id', params: { id: '424242' } })
  })

  it('CLI --json: a tool error and a failed command print code, message_code and params beside the message', async () => {
    const rated = await runCli('rate', '424242', '0.5', '--library', library, '--json')
    expect(rated.code).toBe(1)
    expect(JSON.parse(rated.stdout)).toEqual({ status: 'error', message: 'no active skill with id 424242', skill_id: '424242', code: 'not_found', message_code: 'skill.no_active_id', params: { id: '424242' } })

    const gone = path.join(tempDir('cli'), 'missing-library')
    const listed = await runCli('list', '--library', gone, '--json')
    expect(listed.code).toBe(1)
    expect(listed.stderr).toContain(`library folder not found: ${gone}`)
    expect(JSON.parse(listed.stdout)).toEqual({ status: 'error', message: `library folder not found: ${gone}`, code: 'not_found', message_code: 'library.not_found', params: { path: gone } })
    // without --json, stdout stays empty
    expect((await runCli('list', '--library', gone)).stdout).toBe('')
  })

  it('MCP: a refused tool call keeps its text and adds message_code and params to the structured content', async () => {
    const store = await openLibrary(library)
    const answer = createToolAnswerer({ store, proposalOnly: { edit: false, delete: false } })
    const result = await answer('rate_skill', { skill_id: '424242', rating: 0.5 })
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toMatchObject({ status: 'error', message: 'no active skill with id 424242', message_code: 'skill.no_active_id', params: { id: '424242' } })
    expect(JSON.parse((result.content[0] as { text: string }).text)).toMatchObject({ message: 'no active skill with id 424242', message_code: 'skill.no_active_id' })
  })
})

/**
 * A skill written by reflection from a session that printed a secret never contains it: offline (the session's
 * commands go into the skill) and through a model that echoes it back. The run says what it removed.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createOpenAiClient } from '../../src/main/llm/openai-client'
import { redactSecrets } from '../../src/main/llm/redact'
import { defaultReflectionDeps } from '../../src/main/reflect/default-deps'
import { libraryDirFor, runReflection } from '../../src/main/reflect/run-reflection'
import type { ReflectionEvent } from '../../src/main/reflect/types'
import { chatCompletion, startOpenAiServer, type OpenAiTestServer } from '../helpers/openai-server'
import { makeRoot, skillFiles } from './make-root'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'

const AWS = 'AKIAIOSFODNN7EXAMPLE'
const GH = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'
const PASSWORD = 'hunter2hunter2xyz'
const SECRET_LOG = [
  'Received user requirement: Upload the nightly report to the S3 bucket',
  '<invoke name="run_terminal_cmd">',
  '  <parameter name="command">cat .env</parameter>',
  '</invoke>',
  `AWS_ACCESS_KEY_ID=${AWS}`,
  `GITHUB_TOKEN=${GH}`,
  '<invoke name="run_terminal_cmd">',
  `  <parameter name="command">AWS_ACCESS_KEY_ID=${AWS} aws s3 cp report.csv s3://nightly/ && git push https://bot:${PASSWORD}@git.example.com/r.git</parameter>`,
  '</invoke>',
  'TASK_COMPLETED: uploaded🎉 Workflow completed!',
  ''
].join('\n')

let server: OpenAiTestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

function writtenText(root: string): string {
  const dir = libraryDirFor(root, 'alice')
  return skillFiles(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n')
}

describe('reflection never writes a secret the session printed', () => {
  it('redactSecrets removes keys, tokens, private keys and URL passwords, and names what it removed', () => {
    const r = redactSecrets(`key ${AWS}\ntoken ${GH}\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\nhttps://bot:${PASSWORD}@git.example.com\nAPI_KEY=abcdefghijklmnop1234\nAPI_KEY=your-key-here`)
    for (const s of [AWS, GH, PASSWORD, 'b3BlbnNzaC1rZXktdjEAAAAA', 'abcdefghijklmnop1234']) expect(r.text).not.toContain(s)
    expect(r.text).toContain('https://bot:[REDACTED:url-password]@git.example.com')
    expect(r.text).toContain('API_KEY=your-key-here') // a placeholder is not a secret
    expect(r.removed.map((x) => x.kind).sort()).toEqual(['aws-access-key', 'github-token', 'private-key', 'secret-assignment', 'url-password'])
    expect(redactSecrets('plain text, sk-short and a sha 0123456789abcdef0123456789abcdef01234567').removed).toEqual([])
  })

  it('offline: the commands go into the skill without the secrets, and the run says so', async () => {
    const root = makeRoot([{ dir: 'alice/output_20260102_000001', log: SECRET_LOG, ageSec: 100 }])
    const events: ReflectionEvent[] = []
    const summary = await runReflection({ rootDir: root, onEvent: (e) => events.push(e) }, defaultReflectionDeps())
    expect(summary.created).toHaveLength(1)
    const text = writtenText(root)
    expect(text).toContain('aws s3 cp report.csv')
    for (const s of [AWS, GH, PASSWORD]) expect(text).not.toContain(s)
    expect(text).toContain('[REDACTED:')
    const done = events.find((e) => e.kind === 'task-done')!
    expect(done.message).toMatch(/secret\(s\) printed in the session redacted from the skill \(.*aws-access-key/)
    // by code, the note a coded param: the app says it in Chinese too
    expect(done).toMatchObject({ messageCode: 'reflect.generated_redacted', params: { note: { messageCode: 'reflect.redacted' } } })
    expect(translateMessage(done, done.message!, 'zh')).toMatch(/^已生成技能：.* — 会话中打印的 \d+ 个密钥已从技能中删除（.*aws-access-key/)
  })

  it('with a model that echoes the secrets back, the skill still has none', async () => {
    server = await startOpenAiServer(() => ({ json: chatCompletion([`Upload reports to S3`, '', `Run AWS_ACCESS_KEY_ID=${AWS} aws s3 cp, then push with https://bot:${PASSWORD}@git.example.com/r.git and token ${GH}.`, '', 'USAGE_CONDITIONS: nightly uploads'].join('\n')) }))
    const root = makeRoot([{ dir: 'alice/output_20260102_000001', log: SECRET_LOG, ageSec: 100 }])
    const llm = createOpenAiClient({ baseUrl: server.url, model: 'reflect-model', apiKey: 'sk-test-0000000000', retryBaseMs: 5, retryMaxMs: 10 })
    const summary = await runReflection({ rootDir: root, mode: 'openai' }, defaultReflectionDeps({ llm }))
    expect(summary.failed).toEqual([])
    expect(summary.created).toHaveLength(1)
    const text = writtenText(root)
    expect(text).toContain('aws s3 cp')
    for (const s of [AWS, GH, PASSWORD]) expect(text).not.toContain(s)
  })
})

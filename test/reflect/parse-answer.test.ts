import { describe, expect, it } from 'vitest'
import { parseReflectionAnswer, safeWorkspacePath, titleFromReflection } from '../../src/main/reflect/parse-answer'

describe('parseReflectionAnswer', () => {
  it('reads the documented shape', () => {
    const answer = [
      'Python calculator with tests',
      '',
      'The user wanted a calculator.',
      '',
      'FILES_TO_BACKUP:',
      'calculator.py',
      'tests/test_calculator.py',
      '',
      'USAGE_CONDITIONS: when a user asks for a small calculator'
    ].join('\n')
    const p = parseReflectionAnswer(answer)
    expect(p.reflection).toBe('Python calculator with tests\n\nThe user wanted a calculator.')
    expect(p.filesToBackup).toEqual(['calculator.py', 'tests/test_calculator.py'])
    expect(p.usageConditions).toBe('when a user asks for a small calculator')
    expect(p.rejectedPaths).toEqual([])
  })

  it('tolerates case, Markdown decoration, bullets, fences, CRLF and the usage on the next line', () => {
    const answer = [
      '```markdown',
      '## Reflection',
      'body text',
      '```',
      '',
      '**files_to_backup:**',
      '```',
      '- `./workspace/src/app.ts`',
      '* "docs/guide.md"',
      '1. notes.txt',
      '```',
      '### Usage Conditions:',
      '',
      '  - Use for TypeScript apps  '
    ].join('\r\n')
    const p = parseReflectionAnswer(answer)
    expect(p.reflection).toContain('body text')
    expect(p.filesToBackup).toEqual(['src/app.ts', 'docs/guide.md', 'notes.txt'])
    expect(p.usageConditions).toBe('Use for TypeScript apps')
  })

  it('works with no markers at all', () => {
    const p = parseReflectionAnswer('just a reflection\nwith two lines')
    expect(p.reflection).toBe('just a reflection\nwith two lines')
    expect(p.filesToBackup).toEqual([])
    expect(p.usageConditions).toBe('')
  })

  it('does not take a prose sentence starting with "usage conditions" for the marker', () => {
    const p = parseReflectionAnswer('Usage conditions matter a lot here.\nMore text.')
    expect(p.reflection).toContain('Usage conditions matter')
  })

  it('drops paths outside the workspace and reports them', () => {
    const answer = [
      'r',
      'FILES_TO_BACKUP:',
      '/etc/passwd',
      '../../secrets.txt',
      'a/../../b.py',
      'C:\\Windows\\win.ini',
      '~/.ssh/id_rsa',
      'file:///etc/hosts',
      'ok/file.py',
      'none',
      'USAGE_CONDITIONS: x'
    ].join('\n')
    const p = parseReflectionAnswer(answer)
    expect(p.filesToBackup).toEqual(['ok/file.py'])
    expect(p.rejectedPaths).toHaveLength(6)
  })

  it('accepts copy_skill_files tool calls, ignoring broken JSON', () => {
    const p = parseReflectionAnswer('reflection', [
      { id: '1', name: 'copy_skill_files', arguments: JSON.stringify({ file_paths: ['a.py', '../x.py'] }) },
      { id: '2', name: 'copy_skill_files', arguments: '{not json' },
      { id: '3', name: 'other_tool', arguments: JSON.stringify({ file_paths: ['z.py'] }) }
    ])
    expect(p.filesToBackup).toEqual(['a.py'])
    expect(p.rejectedPaths).toEqual(['../x.py'])
  })

  it('caps huge answers and file lists', () => {
    const files = Array.from({ length: 500 }, (_, i) => `f${i}.py`).join('\n')
    const p = parseReflectionAnswer('x'.repeat(1_000_000) + '\nFILES_TO_BACKUP:\n' + files + '\nUSAGE_CONDITIONS: ' + 'u'.repeat(5000))
    expect(p.reflection.length).toBeLessThanOrEqual(60_000)
    expect(p.filesToBackup).toHaveLength(50)
    expect(p.usageConditions.length).toBeLessThanOrEqual(500)
  })

  it('survives nonsense', () => {
    for (const junk of ['', '\u0000\u0001', 'FILES_TO_BACKUP:', 'USAGE_CONDITIONS:', '```', '💥'.repeat(1000)]) {
      const p = parseReflectionAnswer(junk)
      expect(typeof p.reflection).toBe('string')
      expect(Array.isArray(p.filesToBackup)).toBe(true)
    }
  })
})

describe('safeWorkspacePath', () => {
  it('normalises or refuses', () => {
    expect(safeWorkspacePath('./a//b/./c.py')).toBe('a/b/c.py')
    expect(safeWorkspacePath('workspace/x.md')).toBe('x.md')
    expect(safeWorkspacePath('a\\b.py')).toBe('a/b.py')
    expect(safeWorkspacePath('..')).toBeUndefined()
    expect(safeWorkspacePath('a\u0000.py')).toBeUndefined()
    expect(safeWorkspacePath('(none)')).toBe('')
    expect(safeWorkspacePath('No files were produced')).toBe('')
  })
})

describe('titleFromReflection', () => {
  it('strips Markdown and numbering and skips generic headings', () => {
    expect(titleFromReflection('## 1. **Python calculator**\nmore', 'fb')).toBe('Python calculator')
    expect(titleFromReflection('## 深度反思分析\n...', '写一个笑话')).toBe('写一个笑话')
    expect(titleFromReflection('', 'fallback')).toBe('fallback')
    expect(titleFromReflection('x'.repeat(200), 'f').length).toBeLessThanOrEqual(50)
  })
})

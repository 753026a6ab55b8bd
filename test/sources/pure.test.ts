/** The pure parts of sources/: URLs and credentials, ls-remote / ls-tree parsing, link resolution, three-way merges. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { gitFailure } from '../../src/main/sources/git'
import { parseLsRemote, parseLsTree, pickRef } from '../../src/main/sources/repo-cache'
import { cleanSubdir, findRepoSkills, linkDestination } from '../../src/main/sources/repo-skills'
import { redactUrl } from '../../src/main/sources/source-spec'
import { hasConflictMarkers, keepBoth, mergeFrontMatter, mergeText } from '../../src/main/sources/three-way'

const labels = { ours: 'library', theirs: 'upstream' }

describe('sources: URLs and git output', () => {
  it('never records credentials typed into a URL (ssh user names are kept)', () => {
    expect(redactUrl('https://user:ghp_token@github.com/o/r.git')).toBe('https://github.com/o/r.git')
    expect(redactUrl('https://ghp_token@github.com/o/r.git')).toBe('https://github.com/o/r.git')
    expect(redactUrl('ssh://git@github.com/o/r.git')).toBe('ssh://git@github.com/o/r.git')
    expect(redactUrl('ssh://git:pw@host/r.git')).toBe('ssh://host/r.git')
    expect(redactUrl('file:///srv/r.git')).toBe('file:///srv/r.git')
  })

  it('reads ls-remote: default branch, tags peeled to their commit', () => {
    const a = 'a'.repeat(40)
    const b = 'b'.repeat(40)
    const c = 'c'.repeat(40)
    const { refs, head } = parseLsRemote(`ref: refs/heads/main\tHEAD\n${a}\tHEAD\n${a}\trefs/heads/main\n${b}\trefs/tags/v1\n${c}\trefs/tags/v1^{}\n`)
    expect(head).toBe('refs/heads/main')
    expect(pickRef(refs, 'main')).toEqual({ name: 'refs/heads/main', oid: a })
    expect(pickRef(refs, 'v1')).toEqual({ name: 'refs/tags/v1', oid: c })
    expect(pickRef(refs, 'nope')).toBeNull()
  })

  it('reads ls-tree -z (sizes, modes, paths with spaces)', () => {
    const oid = 'd'.repeat(40)
    const entries = parseLsTree(Buffer.from(`100755 blob ${oid}      12\ta b/run.sh\u0000120000 blob ${oid}       9\tlink\u0000160000 commit ${oid}       -\tsub\u0000`))
    expect(entries).toEqual([
      { path: 'a b/run.sh', mode: '100755', oid, size: 12 },
      { path: 'link', mode: '120000', oid, size: 9 },
      { path: 'sub', mode: '160000', oid, size: 0 }
    ])
  })

  it('turns git failures into causes a person can act on', () => {
    expect(gitFailure(['fetch'], "fatal: could not read Username for 'https://github.com': terminal prompts disabled").code).toBe('auth')
    expect(gitFailure(['fetch'], 'git@github.com: Permission denied (publickey).').code).toBe('auth')
    expect(gitFailure(['ls-remote'], "fatal: '/tmp/x' does not appear to be a git repository").code).toBe('not_git')
    expect(gitFailure(['fetch'], "fatal: couldn't find remote ref refs/heads/nope").code).toBe('not_found')
    expect(gitFailure(['fetch'], 'fatal: something else').message).toBe('git fetch failed: fatal: something else')
  })

  it('keeps --path inside the repository and links inside it', () => {
    expect(cleanSubdir('./skills/')).toBe('skills')
    expect(cleanSubdir(undefined)).toBe('')
    expect(() => cleanSubdir('../x')).toThrow(/inside the repository/)
    expect(() => cleanSubdir('../x')).toThrow(expect.objectContaining({ code: 'invalid', messageCode: 'install.bad_subdir', params: { path: '"../x"' } }))
    expect(linkDestination('a/b/link', '../c.md')).toBe('a/c.md')
    expect(linkDestination('a/link', '../../etc/passwd')).toBeNull()
    expect(linkDestination('a/link', '/etc/passwd')).toBeNull()
    const oid = 'e'.repeat(40)
    const skills = findRepoSkills(
      [
        { path: 's/SKILL.md', mode: '100644', oid, size: 1 },
        { path: 's/inner/SKILL.md', mode: '100644', oid, size: 1 },
        { path: 's/inner/x.md', mode: '100644', oid, size: 1 },
        { path: 's/dirlink', mode: '120000', oid: 'f'.repeat(40), size: 1 },
        { path: 'legacy/old/SKILL.md', mode: '100644', oid, size: 1 }
      ],
      '',
      new Map([['f'.repeat(40), 'inner']])
    )
    // a skill below a bookkeeping folder's name is listed with its problem, never passed over without a word
    expect(skills.map((s) => s.dir)).toEqual(['legacy/old', 's', 's/inner'])
    expect(skills[0]!.problems.map((p) => p.text)).toEqual(['it lies in a folder named "legacy", which a library keeps for its own bookkeeping: not installed (take it with --path legacy/old)'])
    // each problem by code too: the app words it without reading the English back
    expect(skills[0]!.problems[0]).toMatchObject({ messageCode: 'install.reserved_folder', params: { folder: 'legacy', dir: 'legacy/old' } })
    // the nested skill's files are its own, not the outer one's; a link to a folder refuses the skill
    expect(skills[1]!.files.map((f) => f.rel)).toEqual([])
    expect(skills[1]!.problems.map((p) => p.text)).toEqual(['symbolic link s/dirlink points to a folder (s/inner): links to folders are not copied'])
    expect(skills[1]!.problems[0]).toMatchObject({ messageCode: 'install.link_to_folder', params: { link: 's/dirlink', dest: 's/inner' } })
    expect(skills[2]!.files.map((f) => f.rel)).toEqual(['x.md'])
  })
})

describe('three-way merges', () => {
  const base = 'a\nb\nc\nd\ne\nf\ng\n'

  it('takes a change made on one side, and both sides\' changes to different places', () => {
    expect(mergeText(base, base, base.replace('b', 'B'), labels)).toEqual({ text: base.replace('b', 'B'), conflicts: 0 })
    expect(mergeText(base, base.replace('b', 'B'), base, labels)).toEqual({ text: base.replace('b', 'B'), conflicts: 0 })
    expect(mergeText(base, base.replace('b', 'B'), base.replace('f', 'F'), labels)).toEqual({ text: 'a\nB\nc\nd\ne\nF\ng\n', conflicts: 0 })
    expect(mergeText(base, base.replace('g\n', 'g\nh\n'), base.replace('a\n', '0\na\n'), labels).text).toBe('0\na\nb\nc\nd\ne\nf\ng\nh\n')
  })

  it('keeps both versions between markers where both sides changed the same place', () => {
    const r = mergeText(base, base.replace('d', 'ours'), base.replace('d', 'theirs'), labels)
    expect(r.conflicts).toBe(1)
    expect(r.text).toBe('a\nb\nc\n<<<<<<< library\nours\n=======\ntheirs\n>>>>>>> upstream\ne\nf\ng\n')
    expect(hasConflictMarkers(r.text)).toBe(true)
    expect(keepBoth('x', 'y', labels)).toEqual({ text: '<<<<<<< library\nx\n=======\ny\n>>>>>>> upstream\n', conflicts: 1 })
  })

  it('never drops a line either side added (property)', () => {
    const lines = fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { maxLength: 12 })
    fc.assert(
      fc.property(lines, lines, lines, (b, o, t) => {
        const text = (l: string[]): string => l.map((x) => `${x}\n`).join('')
        const r = mergeText(text(b), text(o), text(t), labels)
        const out = r.text.split('\n')
        // every line of ours and of theirs that is not in base survives somewhere in the result
        for (const line of [...o, ...t]) if (!b.includes(line)) expect(out).toContain(line)
        if (r.conflicts === 0) expect(hasConflictMarkers(r.text)).toBe(false)
      }),
      { numRuns: 300 }
    )
  })

  it('merges front matter by key; our bookkeeping is never merged; a key both changed keeps ours', () => {
    const base = { name: 'x', description: 'd', license: 'MIT', metadata: { author: 'a', skillbench: { skill_id: '1' } } }
    const ours = { ...base, license: 'Apache-2.0', metadata: { author: 'a', skillbench: { skill_id: '1', fetch_count: 3 } } }
    const theirs = { ...base, description: 'better', license: 'BSD', metadata: { author: 'b', version: '2', skillbench: { other: 1 } } }
    const r = mergeFrontMatter(base, ours, theirs)
    expect(r.changes).toEqual([
      { path: ['description'], value: 'better' },
      { path: ['metadata', 'author'], value: 'b' },
      { path: ['metadata', 'version'], value: '2' }
    ])
    expect(r.conflicts).toEqual(['license'])
  })
})

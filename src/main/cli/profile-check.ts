import { coded, type CodedText } from '../../shared/error-codes'
import { closestName } from '../../shared/closest-name'
import { wantedName } from '../deploy/render'
import { librarySkills } from '../deploy/run'
import { selectorMatches, skillFacets, type DeployProfile } from '../deploy/selection'
import { openLibrary } from '../store/library'

/**
 * The selectors of a profile just set that take no skill of the library now, each as a line to say: `--skill
 * brainstormin` was kept and then deployed nothing, without a word. Not refused (a tag or a skill may come later);
 * a close name, tag or collection is offered.
 */
export async function unmatchedSelectors(library: string, name: string, profile: DeployProfile): Promise<CodedText[]> {
  const { skills } = await librarySkills(await openLibrary(library))
  const facets = skills.map((s) => skillFacets(s, wantedName(s).name))
  const out: CodedText[] = []
  for (const selector of [...profile.skills, ...profile.except]) {
    if (selector === '*' || facets.some((f) => selectorMatches(selector, f))) continue
    const colon = selector.indexOf(':')
    const kind = colon > 0 ? selector.slice(0, colon) : ''
    const value = colon > 0 ? selector.slice(colon + 1) : selector
    const pool = kind === 'tag' ? facets.flatMap((f) => f.tags) : kind === 'collection' ? facets.flatMap((f) => f.collections) : facets.flatMap((f) => f.names.slice(0, 2))
    const close = closestName(kind === 'tag' || kind === 'collection' ? value.toLowerCase() : value, [...new Set(kind === 'tag' || kind === 'collection' ? pool.map((p) => p.toLowerCase()) : pool)])
    const meant = close === undefined ? undefined : kind === 'tag' || kind === 'collection' ? `${kind}:${close}` : close
    out.push(meant ? coded('deploy.selector_meant', { profile: name, selector, meant }) : coded('deploy.selector_takes_none', { profile: name, selector }))
  }
  return out
}

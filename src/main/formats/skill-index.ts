/** `index.json` catalogues of SKILL.md trees: kept by the store (which syncs them on its writes), used here too. */
export { buildSkillIndex, syncSkillIndex, readSkillIndex, serializeSkillIndex, indexFileFor, INDEX_FILE, BOOKKEEPING_INDEX_FILE, type SkillIndex, type SkillIndexEntry } from '../store/skill-index'

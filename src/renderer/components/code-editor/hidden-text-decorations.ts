/**
 * Hidden text made visible in Monaco (issue 38): every run of zero-width characters, Unicode tag characters and
 * bidi controls gets a decoration — the run marked, and after it a ⟦…⟧ label of what it says (the ASCII the tag
 * characters spell, the characters' names otherwise) — with a hover saying what it is. A person then sees what
 * the agent reads. Kept current on every change of the text; the same finder as the audit (shared/hidden-text).
 */
import { findHiddenRuns, type HiddenKind } from '../../../shared/hidden-text'
import type { monaco as Monaco } from './monaco-setup'

/** The hover text of each kind of run (already translated). */
export type HiddenTextLabels = Record<HiddenKind, string>

/** Decorations for the text's hidden runs (pure: Monaco's option objects, 1-based ranges). */
export function hiddenTextDecorations(text: string, labels: HiddenTextLabels): Monaco.editor.IModelDeltaDecoration[] {
  return findHiddenRuns(text).map((r) => ({
    range: { startLineNumber: r.line + 1, startColumn: r.start + 1, endLineNumber: r.line + 1, endColumn: r.end + 1 },
    options: {
      description: 'skillbench-hidden-text',
      inlineClassName: `hidden-text-run hidden-text-${r.kind}`,
      hoverMessage: { value: `${labels[r.kind]}: \`${r.decoded.replace(/`/g, 'ˋ')}\`` },
      after: { content: `⟦${r.decoded.length > 200 ? `${r.decoded.slice(0, 199)}…` : r.decoded}⟧`, inlineClassName: `hidden-text-reveal hidden-text-reveal-${r.kind}` },
      overviewRuler: { color: '#c62828', position: 4 }
    }
  }))
}

/** Keeps an editor's hidden-text decorations current; returns the disposer. */
export function showHiddenText(editor: Monaco.editor.ICodeEditor, labels: HiddenTextLabels): () => void {
  const collection = editor.createDecorationsCollection()
  const update = (): void => {
    const model = editor.getModel()
    collection.set(model ? hiddenTextDecorations(model.getValue(), labels) : [])
  }
  update()
  const onContent = editor.onDidChangeModelContent(update)
  const onModel = editor.onDidChangeModel(update)
  return () => {
    onContent.dispose()
    onModel.dispose()
    collection.clear()
  }
}

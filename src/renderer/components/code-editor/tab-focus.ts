import { useCallback, useEffect, useRef, useState } from 'react'
import { monaco } from './monaco-setup'

/** Keys that only modify the next one (Shift before Tab): they neither use nor end an Esc. */
const MODIFIERS = new Set([monaco.KeyCode.Shift, monaco.KeyCode.Ctrl, monaco.KeyCode.Alt, monaco.KeyCode.Meta])

/** Remembered across editors for the session, like VS Code's own switch. */
let remembered = false

export function isMac(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)
}

/**
 * "Tab moves focus" for one Monaco editor, so the keyboard is never trapped:
 * - a switch (Ctrl+M; Ctrl+Shift+M on macOS, Monaco's own keys) the status line shows and toggles;
 * - Esc, then Tab, leaves the editor as in VS Code: Esc turns the mode on for the next key only.
 * Driven through the editor's `tabFocusMode` option (Monaco's global switch is not public API).
 */
export function useTabFocus(editor: monaco.editor.IStandaloneCodeEditor | null): { on: boolean; toggle: () => void } {
  const [on, setOn] = useState(remembered)
  const armed = useRef(false)
  const onRef = useRef(on)
  const apply = useCallback(() => {
    editor?.updateOptions({ tabFocusMode: onRef.current || armed.current })
  }, [editor])
  const toggle = useCallback(() => {
    remembered = !onRef.current
    onRef.current = remembered
    setOn(remembered)
    apply()
  }, [apply])
  useEffect(() => {
    if (!editor) return
    apply()
    // ours instead of Monaco's binding on the same keys, so the status line always knows the state
    const keys = isMac() ? monaco.KeyMod.WinCtrl | monaco.KeyMod.Shift | monaco.KeyCode.KeyM : monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyM
    editor.addCommand(keys, toggle)
    const disarm = (): void => {
      if (!armed.current) return
      armed.current = false
      apply()
    }
    const keyDown = editor.onKeyDown((e) => {
      if (e.keyCode === monaco.KeyCode.Escape) {
        armed.current = true
        apply()
      } else if (armed.current && !MODIFIERS.has(e.keyCode)) {
        // after Monaco's key handling (it runs later in this same event): this key still sees the mode on
        setTimeout(disarm, 0)
      }
    })
    const blur = editor.onDidBlurEditorText(disarm)
    return () => {
      keyDown.dispose()
      blur.dispose()
    }
  }, [editor, apply, toggle])
  return { on, toggle }
}

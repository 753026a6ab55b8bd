import { useEffect, useRef } from 'react'
import type { ReactNode } from 'react'

/**
 * A modal dialog: focus moves in, Tab stays inside, Esc closes, focus returns on close. `describedBy`: the id of
 * what screen readers read after the title when focus moves in (what a confirmation is about to do).
 */
export function Dialog(props: { title: string; onClose: () => void; children: ReactNode; wide?: boolean; testId?: string; describedBy?: string; className?: string }): React.JSX.Element {
  const ref = useRef<HTMLDivElement>(null)
  const { onClose } = props
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null
    const first = ref.current?.querySelector<HTMLElement>('[data-autofocus], button, input, select, textarea, [tabindex]:not([tabindex="-1"])')
    first?.focus()
    return () => previous?.focus?.()
  }, [])
  function onKeyDown(e: React.KeyboardEvent): void {
    if (e.key === 'Escape') {
      e.stopPropagation()
      onClose()
    } else if (e.key === 'Tab' && ref.current) {
      const items = [...ref.current.querySelectorAll<HTMLElement>('button:not([disabled]), input, select, textarea, a[href], [tabindex]:not([tabindex="-1"])')]
      if (items.length === 0) return
      const first = items[0]!
      const last = items[items.length - 1]!
      if (e.shiftKey && document.activeElement === first) {
        e.preventDefault()
        last.focus()
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault()
        first.focus()
      }
    }
  }
  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={ref} role="dialog" aria-modal="true" aria-label={props.title} aria-describedby={props.describedBy} className={`${props.wide ? 'dialog dialog-wide' : 'dialog'}${props.className ? ` ${props.className}` : ''}`} onKeyDown={onKeyDown} data-testid={props.testId}>
        <h2 className="dialog-title">{props.title}</h2>
        {props.children}
      </div>
    </div>
  )
}

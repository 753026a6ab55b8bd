import { useEffect, useRef, useState } from 'react'
import type { ReactNode } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'

interface Props<T> {
  items: readonly T[]
  rowHeight: number
  getKey: (item: T, index: number) => string
  renderRow: (item: T, index: number, active: boolean) => ReactNode
  /** Enter / double-click on a row. */
  onOpen?: (item: T, index: number) => void
  /** The active row changed (arrows or click). */
  onActiveChange?: (item: T, index: number) => void
  ariaLabel: string
  testId?: string
  rowTestId?: string
  className?: string
  /** Called when the user scrolls near the end (to load more). */
  onNearEnd?: () => void
  /** Rows differ in height: `rowHeight` is the estimate, each row is measured once shown. */
  measured?: boolean
  /** Moves the active row there and scrolls it to the top (a new `seq` repeats the jump). */
  jumpTo?: { index: number; seq: number }
  /** Index of the row to mark (e.g. a search hit), without moving the active row. */
  markedIndex?: number
  /** 'list': rows are items (they may hold buttons) rather than options to pick; arrows still move and scroll. */
  role?: 'listbox' | 'list'
}

/**
 * A keyboard-navigable virtualised list (listbox): only visible rows are in the DOM, so 10,000+
 * items scroll smoothly. Arrows / PageUp / PageDown / Home / End move, Enter opens.
 */
export function VirtualList<T>(props: Props<T>): React.JSX.Element {
  const parentRef = useRef<HTMLDivElement>(null)
  const [active, setActive] = useState(0)
  const count = props.items.length
  // The virtualizer's API is not memoizable by design; the react-hooks compiler rule can't know that.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => parentRef.current,
    estimateSize: () => props.rowHeight,
    overscan: 8,
    initialRect: { width: 800, height: 600 }
  })
  const { jumpTo } = props
  const [seenJump, setSeenJump] = useState<number | null>(null)
  if (jumpTo && jumpTo.seq !== seenJump && count > 0) {
    setSeenJump(jumpTo.seq)
    setActive(Math.max(0, Math.min(count - 1, jumpTo.index)))
  }
  const hasItems = count > 0
  const jumpSeq = jumpTo?.seq
  useEffect(() => {
    if (jumpTo && hasItems) virtualizer.scrollToIndex(Math.max(0, Math.min(count - 1, jumpTo.index)), { align: 'start' })
    // scroll once per jump (its seq), not on every change of the list
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [jumpSeq, hasItems])
  const listbox = (props.role ?? 'listbox') === 'listbox'
  const activeIndex = Math.min(active, Math.max(0, count - 1))
  const items = virtualizer.getVirtualItems()
  const last = items[items.length - 1]
  const { onNearEnd } = props
  useEffect(() => {
    if (onNearEnd && last && last.index >= count - 5) onNearEnd()
  }, [last, count, onNearEnd])

  function move(to: number): void {
    if (count === 0) return
    const index = Math.max(0, Math.min(count - 1, to))
    setActive(index)
    virtualizer.scrollToIndex(index, { align: 'auto' })
    props.onActiveChange?.(props.items[index]!, index)
  }

  function onKeyDown(e: React.KeyboardEvent): void {
    const page = Math.max(1, Math.floor((parentRef.current?.clientHeight ?? 600) / props.rowHeight) - 1)
    const keys: Record<string, number> = { ArrowDown: activeIndex + 1, ArrowUp: activeIndex - 1, PageDown: activeIndex + page, PageUp: activeIndex - page, Home: 0, End: count - 1 }
    if (e.key in keys) {
      e.preventDefault()
      move(keys[e.key]!)
    } else if ((e.key === 'Enter' || e.key === ' ') && count > 0 && e.target === e.currentTarget) {
      e.preventDefault()
      props.onOpen?.(props.items[activeIndex]!, activeIndex)
    }
  }

  return (
    <div
      ref={parentRef}
      className={`vlist ${props.className ?? ''}`}
      role={listbox ? 'listbox' : 'list'}
      tabIndex={0}
      aria-label={props.ariaLabel}
      aria-activedescendant={listbox && count > 0 ? `${props.testId ?? 'vlist'}-row-${activeIndex}` : undefined}
      data-testid={props.testId}
      onKeyDown={onKeyDown}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
        {items.map((row) => {
          const item = props.items[row.index]!
          const isActive = row.index === activeIndex
          const cls = `vrow${isActive ? ' vrow-active' : ''}${row.index === props.markedIndex ? ' vrow-marked' : ''}`
          return (
            <div
              key={props.getKey(item, row.index)}
              id={`${props.testId ?? 'vlist'}-row-${row.index}`}
              role={listbox ? 'option' : 'listitem'}
              aria-selected={listbox ? isActive : undefined}
              className={cls}
              data-testid={props.rowTestId}
              data-index={row.index}
              ref={props.measured ? virtualizer.measureElement : undefined}
              style={{ position: 'absolute', top: 0, left: 0, width: '100%', ...(props.measured ? {} : { height: props.rowHeight }), transform: `translateY(${row.start}px)` }}
              onClick={() => {
                setActive(row.index)
                props.onActiveChange?.(item, row.index)
              }}
              onDoubleClick={() => props.onOpen?.(item, row.index)}
            >
              {props.renderRow(item, row.index, isActive)}
            </div>
          )
        })}
      </div>
    </div>
  )
}

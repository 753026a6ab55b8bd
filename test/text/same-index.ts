import { expect } from 'vitest'
import type { TfIdfIndex } from '../../src/main/text/tfidf'

/** Two indexes are the same: vocabulary, document frequencies, rows and postings, value for value. */
export function expectSameIndex(a: TfIdfIndex, b: TfIdfIndex): void {
  expect(a.vocab).toEqual(b.vocab)
  expect(Array.from(a.df)).toEqual(Array.from(b.df))
  expect(Array.from(a.rowPtr)).toEqual(Array.from(b.rowPtr))
  expect(Array.from(a.colIdx)).toEqual(Array.from(b.colIdx))
  expect(Array.from(a.values)).toEqual(Array.from(b.values))
  expect(Array.from(a.postDoc)).toEqual(Array.from(b.postDoc))
}

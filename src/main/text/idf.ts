/**
 * The one inverse document frequency of the product (curation's index, the search index, the pairs update):
 * scikit-learn's smoothed idf, as if one extra document held every term once, so no term's weight is zero or
 * infinite and the ranking matches `TfidfVectorizer()` (bench/cluster_sklearn.py).
 */
export function smoothIdf(documents: number, documentFrequency: number): number {
  return Math.log((1 + documents) / (1 + documentFrequency)) + 1
}

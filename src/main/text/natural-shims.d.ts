// Types for the few deep `natural` modules we load directly: `import 'natural'` costs ~760 ms and prints banners.
declare module 'natural/lib/natural/stemmers/porter_stemmer.js' {
  const PorterStemmer: { stem(token: string): string }
  export default PorterStemmer
}
declare module 'natural/lib/natural/util/stopwords.js' {
  export const words: string[]
}
declare module 'natural/lib/natural/util/stopwords_zh.js' {
  export const words: string[]
}

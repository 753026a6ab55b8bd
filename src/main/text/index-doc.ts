/** A document: its text, or its parts (the text is the parts joined by line breaks; no joined copy is made). */
export type IndexDoc = string | readonly string[]

"""The essay as a citable work.

Nothing here imports MkDocs: `metadata` holds the essay's bibliographic details (its
authors, people and organisations, read by `authors`), `work` makes the one record
each citation is written from, `formats` writes the styles (APA, MLA, Chicago; `casing`
gives APA's sentence case) and `exchange` the downloads (BibTeX, biblatex, RIS,
CSL-JSON), `cff` the repository's CITATION.cff, `head` the metadata of a page's <head>,
`cite_box` the "Cite this" blocks, `whole_essay` the essay on one page, `source` reads a
page's Markdown source line by line (fenced code, the lines that give paragraphs their
ids), `paragraphs` is the Python-Markdown extension that adds ¶ links, and `changes`
says what changed between two editions, paragraph by paragraph, on a page of its own.
"""

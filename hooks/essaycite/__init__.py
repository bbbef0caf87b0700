"""The essay as a citable work.

Plain Python that imports neither MkDocs nor Markdown: `metadata` reads the settings,
`formats` writes citations (APA, MLA, Chicago, BibTeX, RIS, CSL-JSON), `head` the
metadata of a page's <head>, `cite_box` the "Cite this" blocks, `whole_essay` the essay
on one page. `paragraphs` is the Python-Markdown extension that adds ¶ links.
"""

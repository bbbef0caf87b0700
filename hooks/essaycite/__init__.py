"""The essay as a citable work.

Nothing here imports MkDocs: `metadata` reads the settings, `work` makes the one record
each citation is written from, `formats` writes the styles (APA, MLA, Chicago) and
`exchange` the downloads (BibTeX, biblatex, RIS, CSL-JSON), `head` the metadata of a
page's <head>, `cite_box` the "Cite this" blocks, `whole_essay` the essay on one page,
and `paragraphs` is the Python-Markdown extension that adds ¶ links and knows the
source line that gives a paragraph its id.
"""

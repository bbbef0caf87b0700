"""The transcript's pages: which messages they show and where, their entries, their
map, their navigation and their search index. Nothing here imports MkDocs.
"""

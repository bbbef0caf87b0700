"""Message references: the `[msg N]` tags, their expansion in Python-Markdown, and
where each message is cited.

`tags` reads the tags and their near misses, `extension` expands them, `stranded` tells
of tags left where no link can stand, `snippets` frames a cited message beside the
paragraph that cites it, `previews` its popover, `citations` where each is cited. Plain
Python and Python-Markdown only; nothing here imports MkDocs, so the same machinery can
serve another site generator (`sitebuild` runs it).
"""

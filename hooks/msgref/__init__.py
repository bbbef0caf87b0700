"""Message references: `[msg N]` tags, the transcript they point into, and their snippets.

`schema` defines a message, `transcript` reads the transcript file, `redact` finds
secrets, `tags` the tags and their near misses, `extension` expands them in
Python-Markdown, `snippets` says how a message looks, `citations` where each is cited,
`transcript_pages` lays out the transcript's pages, and `background` parses a large
file in a child process. Plain Python and Python-Markdown only; nothing here imports
MkDocs, so the same machinery can serve another site generator (`sitebuild` runs it).
"""

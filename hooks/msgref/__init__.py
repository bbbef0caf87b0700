"""Message references: `[msg N]` tags, the transcript they point into, and their snippets.

`schema` defines a message, `transcript` reads the transcript file, `redact` finds
secrets and `seal` tells the lines the importer redacted, `tags` the tags and their near
misses, `extension` expands them in Python-Markdown, `snippets` says how a message
looks, `citations` where each is cited, `transcript_layout` which messages the
transcript's pages show and where, and `transcript_pages`, `transcript_entries`,
`transcript_map` and `transcript_nav` what those pages hold. Plain Python and
Python-Markdown only; nothing here imports MkDocs, so the same machinery can serve
another site generator (`sitebuild` runs it).
"""

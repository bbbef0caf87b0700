"""Message references: `[msg N]` tags, the transcript they point into, and their snippets.

Plain Python and Python-Markdown only; nothing here imports MkDocs, so the same
machinery can serve another site generator. `hooks/msgref_hook.py` adapts it to MkDocs.
"""

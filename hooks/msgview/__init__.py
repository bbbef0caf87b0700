"""How a message looks, wherever the site shows it: escaped, displayable, rendered.

It reads the transcript's messages (`transcript`) and imports no other package of the
site, nor MkDocs.
"""

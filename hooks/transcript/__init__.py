"""The transcript file: its fields, its reader, and what keeps secrets out of it.

Plain Python only, below every other package of the site: nothing here imports another
package of the site, nor MkDocs.
"""

"""One build of the site, owned by one object, `build.SiteBuild`.

It reads the site's configuration (`site_config`, `settings`), reads the transcript or
takes it from the last build of the process (`between_builds`), lays out the transcript
pages, keeps the citations found and what each page records while it is converted (its
¶ numbers, its headings: `records`), makes the files the build adds (`generated`), the
transcript's entries beside the rest of the build (`rendering`, `worker`), the links
between citations and messages (`citation_links`) and the essay's citations on its pages
(`citing`). Nothing here imports a site generator: an adapter such as
hooks/mkdocs_hook.py calls it. `files` (writing a file whole) and `config_file`
(reading mkdocs.yml outside a build) serve the scripts too.
"""

"""One build of the site, owned by one object, `build.SiteBuild`.

It reads the settings (`settings`), loads the transcript, lays out the transcript pages,
keeps the citations found and what each page records while it is converted (its ¶
numbers, its headings: `records`), makes the files the build adds (`generated`) and the
essay's citations on its pages (`citing`). Nothing here imports a site generator: an
adapter such as hooks/mkdocs_hook.py calls it. `files` (writing a file whole) and
`config_file` (reading mkdocs.yml outside a build) serve the scripts too.
"""

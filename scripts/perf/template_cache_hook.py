"""The hook of the benchmark's plain projects: the site's hook keeps the theme's compiled
templates between builds, and so does this one, so that a build with the site's hook
and a plain build differ by the message citations alone."""

import contextlib

from jinja2 import Environment, FileSystemBytecodeCache


def on_env(env: Environment, config, files) -> None:
    with contextlib.suppress(RuntimeError, OSError):  # Jinja's folder refused: no cache, as the site's hook
        env.bytecode_cache = FileSystemBytecodeCache()

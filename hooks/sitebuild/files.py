"""The site's files: one written so that it is whole or not there (under a temporary
name beside it, renamed into place only once complete); the links among its sources that
lead out of the project, nowhere or round in a loop; copies of the transcript, other
transcripts and session logs."""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from transcript.images import images_folder
from transcript.reader import file_kind

from .session_files import JSON_EXTENSIONS, session_file
from .session_files import TRANSCRIPT as SESSION_TRANSCRIPT
from .site_pages import PageError


@contextmanager
def replaced_when_done(path: str | os.PathLike[str]) -> Iterator[str]:
    """A temporary path beside `path` to write; when the block ends without an error it
    is renamed to `path`, replacing what was there, and otherwise removed. OSError
    tells why the temporary file could not be made or renamed.

    Only a regular file is ever replaced. A symbolic link stays, and the file it points
    to is replaced; a device or a named pipe (`/dev/null`, `/dev/stdout`) is the path
    given back, to be written directly; a folder or anything else is refused with OSError.
    """
    try:  # through links: /dev/stdout leads to /proc/self/fd/1, a pipe with no path of its own
        mode: int | None = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
        yield os.fspath(path)
        return
    path = os.path.realpath(path)
    if mode is not None and not stat.S_ISREG(mode):
        code = errno.EISDIR if stat.S_ISDIR(mode) else errno.EPERM
        raise OSError(code, f"{file_kind(mode)}, which is never replaced", path)
    folder = os.path.dirname(path)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".part")
    os.close(handle)
    try:
        yield temporary
        # mkstemp makes the file readable by its owner only; give it the usual mode.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def check_links(paths: Iterable[str], project_dir: str) -> None:
    """PageError naming the first of the site's source files `paths` that a symbolic link
    (to it, or to a folder above it) leads out of the project, to nothing, or round in a
    loop, or that is no regular file (a named pipe). A generator publishes what a link
    leads to: a link to a file outside the project, made by mistake or by someone else,
    would publish that file. The build stops rather than leaving the file out with a
    warning: a build that is not strict, as `mkdocs serve` is, would go on without it."""
    project = os.path.realpath(project_dir)
    for path in paths:
        name = os.path.relpath(path, project_dir)
        target = os.path.realpath(path)
        if target != path or os.path.islink(path):  # a link on the way (realpath leaves a loop as it is)
            if (loop := _link_to_a_folder_above_it(path, project_dir)) is not None:
                raise PageError(f"{os.path.relpath(loop, project_dir)}: a symbolic link to a folder that holds it, "
                                "a loop: remove it")
            try:
                os.stat(path)
            except OSError as error:
                if error.errno == errno.ELOOP:
                    raise PageError(f"{name}: a loop of symbolic links: remove it") from None
                raise PageError(f"{name}: a symbolic link to {target}, which does not exist") from None
            if not target.startswith(project + os.sep):
                raise PageError(f"{name}: a symbolic link to {target}, outside the project folder: "
                                "copy the file in instead")
        try:
            mode = os.stat(path).st_mode
        except OSError:
            continue  # gone since the generator listed it: the generator says so
        if not stat.S_ISREG(mode):
            raise PageError(f"{name}: is {file_kind(mode)}, not a file to publish")


def check_page_texts(paths: Iterable[str], project_dir: str) -> None:
    """PageError naming the first of the site's Markdown pages `paths` whose name or text
    is not UTF-8, by its line: the generator would stop at it with a traceback."""
    for path in paths:
        try:
            name = os.path.relpath(path, project_dir)
            name.encode("utf-8")
        except UnicodeEncodeError:
            raise PageError(f"{path!a}: a file name that is not UTF-8: rename the file") from None
        if not path.endswith((".md", ".markdown")):
            continue
        with open(path, "rb") as file:
            data = file.read()
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as error:
            line = data.count(b"\n", 0, error.start) + 1
            column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
            raise PageError(f"{name}:{line}: not valid UTF-8 (byte {column} of the line): save the page as UTF-8") \
                from None
        if control := _CONTROL_BYTE.search(data):  # no text holds one; HTML may not
            line = data.count(b"\n", 0, control.start()) + 1
            raise PageError(f"{name}:{line}: a control character (U+{control.group()[0]:04X}): remove it")
        if bidi := _BIDI_CONTROL_BYTES.search(data):  # they would set the words around them in another order
            line = data.count(b"\n", 0, bidi.start()) + 1
            code = ord(bidi.group().decode())
            raise PageError(f"{name}:{line}: a bidirectional control (U+{code:04X}), which reorders the words "
                            "around it: remove it")


# The C0 control characters but tab, line feed, carriage return and form feed, and DEL.
_CONTROL_BYTE = re.compile(rb"[\x00-\x08\x0b\x0e-\x1f\x7f]")
# The bidirectional controls (`msgview.hidden_characters.BIDI_CONTROLS`) in UTF-8.
_BIDI_CONTROL_BYTES = re.compile(rb"\xe2\x80[\x8e\x8f\xaa-\xae]|\xe2\x81[\xa6-\xa9]|\xd8\x9c")


def _link_to_a_folder_above_it(path: str, project_dir: str) -> str | None:
    """The first folder on `path`'s way from `project_dir` that is a symbolic link to
    itself or to a folder holding it (the generator lists files through it over and
    over), or None."""
    relative = os.path.relpath(path, project_dir).split(os.sep)
    here = project_dir
    for part in relative[:-1]:
        here = os.path.join(here, part)
        if os.path.islink(here):
            target = os.path.realpath(here)
            holder = os.path.realpath(os.path.dirname(here))
            if holder == target or holder.startswith(target + os.sep):
                return here
    return None


TRANSCRIPT, ITS_IMAGE, ITS_COPY = "the transcript", "an image of the transcript", "a copy of the transcript"
# What editors and file managers add to the name of a copy or a backup.
_COPY_ENDINGS = ("~", ".bak", ".old", ".orig", ".save", ".swp", ".tmp")
_COPY_STARTS = ("copy of ",)


def transcript_copy(path: str, source_path: str) -> str | None:
    """Why the site's source file `path` is the transcript, one of its images or a copy of
    it, and must not be published as it is; None if it is none of them. The transcript
    itself, by any name (a link, a hard link), is left out silently (it is unredacted), as
    are its images (the build publishes those of the messages it shows). A copy is named
    by the transcript's name with something added (`transcript.jsonl~`, `.bak`,
    `#transcript.jsonl#`, `Copy of transcript.jsonl`) or by its stem with something added
    and its extension (`transcript.old.jsonl`, `transcript (copy).jsonl`) or a backup's
    (`transcript.bak`), or is a file of its name in another folder."""
    try:
        if os.path.abspath(path) == os.path.abspath(source_path) or os.path.samefile(path, source_path):
            return TRANSCRIPT
    except OSError:
        pass
    if os.path.dirname(os.path.abspath(path)) == os.path.abspath(images_folder(source_path)):
        return ITS_IMAGE
    name, source = os.path.basename(path).lower().strip("#"), os.path.basename(source_path).lower()
    name = next((name[len(start):] for start in _COPY_STARTS if name.startswith(start)), name)
    stem, extension = os.path.splitext(source)
    backup = name
    while backup.endswith(_COPY_ENDINGS) and backup != source:
        backup = next(backup[: -len(ending)] for ending in _COPY_ENDINGS if backup.endswith(ending))
    if name.startswith(source) or (name.startswith(stem) and name.endswith(extension)) or (
            backup != name and backup == stem):
        return ITS_COPY
    return None


def copy_problem(name: str, docs_dir: str) -> str:
    """The line that stops a build at a copy of the transcript, `name` from the project's folder."""
    return f"{name}: a copy of the transcript, which would be published unredacted: move it out of {docs_dir}/"


def check_session_files(paths: Iterable[str], project_dir: str, docs_dir: str) -> None:
    """PageError naming the first of the site's source files `paths` that is a transcript
    or a session log, by its start (`session_files`): it would be published as it is."""
    for path in paths:
        if not path.lower().endswith(JSON_EXTENSIONS) or (kind := session_file(path)) is None:
            continue
        name = os.path.relpath(path, project_dir)
        if kind == SESSION_TRANSCRIPT:
            raise PageError(f"{name}: a transcript, not the site's (extra.transcript.source), which would be "
                            f"published unredacted: move it out of {docs_dir}/")
        raise PageError(f"{name}: {kind}, which would be published as it is, unredacted: move it out of "
                        f"{docs_dir}/, or import it with scripts/import_transcript.py")


def generated_clash(theirs: str, src: str, dest: str) -> str:
    """The line that stops a build at the author's file `theirs` (its path from the
    project's folder), which the file the build makes, `src` published at `dest`, would
    replace."""
    published = "" if dest == src else f" (published as {dest})"
    return f"{theirs}: the build makes {src}{published}, which would replace it: rename your file"


def folder_clash(folder: str, written: Iterable[str]) -> str | None:
    """Why the transcript's pages cannot go in `folder` of the site, where the site's own
    files `written` (paths in the built site) are: one of them is there, and would be
    replaced or would replace a transcript page; None if none is."""
    for path in written:
        if path == folder or path.startswith(folder + "/"):
            return (f"mkdocs.yml: extra.transcript.folder: {folder} holds {path}, a page or file of the site: "
                    "choose another folder")
    return None

"""A file written whole or not at all (`sitebuild.files`), as the importer and the PDF
printer write theirs: only a regular file is ever replaced."""

import os
import stat
from pathlib import Path

import pytest

from sitebuild.files import replaced_when_done


def test_a_file_is_replaced_only_when_the_block_ends_well(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("before")
    with pytest.raises(RuntimeError), replaced_when_done(path) as partial:
        Path(partial).write_text("half")
        raise RuntimeError("failed on the way")
    assert path.read_text() == "before" and sorted(os.listdir(tmp_path)) == ["out.txt"]
    with replaced_when_done(path) as partial:
        Path(partial).write_text("after")
    assert path.read_text() == "after" and sorted(os.listdir(tmp_path)) == ["out.txt"]


def test_a_symbolic_link_stays_and_the_file_it_names_is_replaced(tmp_path):
    (tmp_path / "real.txt").write_text("before")
    link = tmp_path / "link.txt"
    link.symlink_to("real.txt")
    with replaced_when_done(link) as partial:
        assert os.path.dirname(partial) == str(tmp_path)
        Path(partial).write_text("after")
    assert os.readlink(link) == "real.txt" and (tmp_path / "real.txt").read_text() == "after"


def test_a_named_pipe_is_written_directly(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with replaced_when_done(pipe) as partial:
        assert partial == str(pipe)
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode) and os.listdir(tmp_path) == ["pipe"]


def test_a_folder_is_never_replaced(tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    with pytest.raises(IsADirectoryError, match="a folder, which is never replaced"), replaced_when_done(folder):
        pass
    assert folder.is_dir() and os.listdir(tmp_path) == ["out"]

"""The system packages' install waits, for a bounded time and saying so, while another
install holds the package manager's lock, then goes on."""

from __future__ import annotations

import fcntl
import os
import subprocess
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LOCK = Path("/var/lib/dpkg/lock-frontend")

pytestmark = pytest.mark.skipif(os.geteuid() != 0 or not LOCK.exists(), reason="needs root and Debian's apt")


def _apt_get_while_locked(hold_seconds: float, limit: int) -> tuple[subprocess.CompletedProcess[str], float]:
    """`apt_get_waiting install bash` (installed: nothing to do, but the lock is taken),
    from the script, while this process holds the package manager's lock."""
    with LOCK.open("w") as lock:
        fcntl.lockf(lock, fcntl.LOCK_EX)
        release = threading.Timer(hold_seconds, lambda: fcntl.lockf(lock, fcntl.LOCK_UN))
        release.start()
        start = time.monotonic()
        try:
            command = "source scripts/system-deps.sh && apt_get_waiting install -y -qq bash"
            result = subprocess.run(["bash", "-c", command], cwd=ROOT, capture_output=True, text=True, timeout=120,
                                    env={**os.environ, "APT_LOCK_WAIT": str(limit)})
        finally:
            release.cancel()
        return result, time.monotonic() - start


def test_the_install_waits_for_the_lock_then_goes_on():
    result, took = _apt_get_while_locked(hold_seconds=5, limit=60)
    assert result.returncode == 0, result.stderr
    assert "Waiting for another install to let go of the package manager's lock (up to 60 s)..." in result.stderr
    assert took >= 4


def test_the_wait_is_bounded_and_says_so():
    result, took = _apt_get_while_locked(hold_seconds=30, limit=4)
    assert result.returncode == 1 and took < 20
    assert result.stderr.strip().endswith("apt-get: another install still holds the package manager's lock after 4 s; "
                                          "run this again once it has finished (APT_LOCK_WAIT=SECONDS waits longer)")

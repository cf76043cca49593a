import os
import shutil
import subprocess

import pytest


@pytest.fixture(scope="session")
def binary():
    """The maskd under test: $MASKD (the test script sets it to the checkout's build), else maskd on PATH."""
    path = os.environ.get("MASKD") or shutil.which("maskd")
    if not path:
        pytest.fail("no maskd binary: set MASKD or put maskd on PATH")
    return path


@pytest.fixture(scope="session")
def cli(binary):
    """`maskd format` over stdin, as the command line gives it: the lines out."""
    def run(lines, mask, *options):
        done = subprocess.run([binary, "format", "--mask", mask, *options], input="\n".join(lines) + "\n",
                              capture_output=True, text=True)
        assert done.returncode in (0, 1), done.stderr
        return done.stdout.split("\n")[:-1]
    return run

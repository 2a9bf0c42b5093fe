"""The Chromium the viewer's tests drive, found or installed.

`find_chromium()` picks a ``chromium`` on PATH (Debian's package) or else the one Playwright downloads;
`make test` runs this file first, which installs one when neither is there: Debian's package when it
runs as root on a system with apt-get, else Playwright's Chromium (``python -m playwright install
chromium``, into Playwright's per-user folder). When neither works the viewer's tests fail with
`INSTALL_COMMANDS`.

    .venv/bin/python tests/browser.py
"""
import os
import shutil
import subprocess
import sys

#: What to run for a browser, in the words of the failure message.
INSTALL_COMMANDS = ("apt-get install -y chromium (as root, Debian or Ubuntu), or else "
                    f"{sys.executable} -m playwright install chromium")


def playwright_chromium():
    """Where Playwright keeps the Chromium it downloads (whether or not it is there yet)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        return playwright.chromium.executable_path


def find_chromium():
    """The executable of a Chromium to drive: ``chromium`` on PATH, else Playwright's; None when neither is there."""
    on_path = shutil.which("chromium")
    if on_path:
        return on_path
    downloaded = playwright_chromium()
    return downloaded if os.path.isfile(downloaded) else None


def install_command():
    """The command that installs a Chromium here: apt-get when root on a system that has it, else Playwright."""
    if shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0:
        return ["sh", "-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium"]
    return [sys.executable, "-m", "playwright", "install", "chromium"]


def main():
    """Install a Chromium unless one is found; a failed install is reported and left to the tests to fail on."""
    found = find_chromium()
    if found:
        print(f"viewer tests: Chromium at {found}")
        return
    command = install_command()
    print(f"viewer tests: no Chromium found, installing one: {' '.join(command)}", flush=True)
    if subprocess.run(command).returncode != 0 or find_chromium() is None:
        print(f"viewer tests: the install failed; the viewer's tests will fail until one of these works: "
              f"{INSTALL_COMMANDS}", file=sys.stderr)


if __name__ == "__main__":
    main()

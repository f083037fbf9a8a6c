"""Send Ctrl-C to a running ``dilemma`` command and report how it stopped.

    python scripts/try_ctrl_c.py 6 equity AA random random --trials 2000000000

waits 6 seconds, sends SIGINT, and prints the exit code, the seconds it took to
stop and what it printed on stderr (the promise: one line, exit code 130).
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    delay, args = float(sys.argv[1]), sys.argv[2:]
    # as from a terminal: Ctrl-C not ignored even where this script's shell ignores it
    proc = subprocess.Popen([sys.executable, "-m", "analysis.cli", *args], text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(delay)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=600)
    lines = err.strip().splitlines()
    print(f"exit {proc.returncode} after {time.monotonic() - sent:.2f} s; {len(lines)} line(s) on stderr")
    for line in lines[-3:]:
        print("  " + line)


if __name__ == "__main__":
    main()

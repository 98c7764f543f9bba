"""Benchmark the start-up of the command line against bare python, in the same run.

    .venv/bin/python bench/startup.py            # 15 runs of each
    .venv/bin/python bench/startup.py --quick    # 7 runs of each

Whole-process wall time (median) of:

- `python -c pass` (the baseline: the interpreter with this environment's site-packages);
- `doctree --help` (target <= 2x the baseline);
- `doctree read PATH` of one document in a small SQLite database (target <= 2x the baseline);
- `git show HEAD:PATH` of the same text in a one-commit repository, for reference.

Also the cost of the editable-install finder (`__editable___doctree_*_finder`, installed by
`pip install -e` as a `.pth` file that every start of this interpreter imports), read from
`python -X importtime -c pass`.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import benchreport

DOC = "~/memory/projects/apollo"


def wall(cmd: list[str], repeat: int, env: dict[str, str] | None = None) -> float:
    """Median wall time of `cmd` in seconds, after one warm-up run."""
    subprocess.run(cmd, check=True, capture_output=True, env=env)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, env=env)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def finder_cost() -> tuple[float, str]:
    """(seconds, module) of the editable finder's import at start-up; (0, "") if none."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "pass"], capture_output=True, text=True
    ).stderr
    total = 0.0
    names = []
    for line in out.splitlines():
        m = re.match(r"import time:\s+(\d+)\s+\|\s+(\d+)\s+\|(\s*)(\S+)", line)
        if m and m.group(4).startswith("__editable__") and m.group(4).endswith("_finder"):
            total += int(m.group(2)) / 1e6  # cumulative: the finder and what it imports
            names.append(m.group(4))
    return total, ", ".join(names)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="7 runs of each instead of 15")
    ap.add_argument("--repeat", type=int, help="runs of each command")
    benchreport.add_json_out(ap)
    args = ap.parse_args(argv)
    repeat = args.repeat or (7 if args.quick else 15)
    doctree = [sys.executable, "-m", "doctree"]
    script = Path(sys.executable).with_name("doctree")
    if script.exists():  # the console script, as a user runs it
        doctree = [str(script)]
    rows = []
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="doctree-startup-") as d:
        db = Path(d) / "s.db"
        text = "# Apollo\n\nThe launch moved to Tuesday.\n"
        src = Path(d) / "apollo.md"
        src.write_text(text)
        subprocess.run(
            [*doctree, "--db", str(db), "write", DOC, "--file", str(src)],
            check=True,
            capture_output=True,
        )
        # Interleave the measures so a burst of load hits them alike.
        bare_t, help_t, read_t = [], [], []
        for _ in range(3):
            bare_t.append(wall([sys.executable, "-c", "pass"], max(1, repeat // 3)))
            help_t.append(wall([*doctree, "--help"], max(1, repeat // 3)))
            read_t.append(wall([*doctree, "--db", str(db), "read", DOC], max(1, repeat // 3)))
        bare, help_s, read_s = (statistics.median(x) for x in (bare_t, help_t, read_t))
        git_s = None
        if shutil.which("git"):
            repo = Path(d) / "git"
            env = {
                **os.environ,
                "GIT_AUTHOR_NAME": "b",
                "GIT_AUTHOR_EMAIL": "b@b",
                "GIT_COMMITTER_NAME": "b",
                "GIT_COMMITTER_EMAIL": "b@b",
            }
            subprocess.run(["git", "init", "-q", str(repo)], check=True)
            (repo / "apollo.md").write_text(text)
            subprocess.run(["git", "-C", str(repo), "add", "."], check=True)
            subprocess.run(["git", "-C", str(repo), "commit", "-qm", "x"], check=True, env=env)
            git_s = wall(["git", "-C", str(repo), "show", "HEAD:apollo.md"], repeat)
    finder_s, finder = finder_cost()
    figures.update(python_startup_s=bare, help_s=help_s, read_s=read_s, finder_s=finder_s)
    if git_s is not None:
        figures["git_show_s"] = git_s
    base = f"{benchreport.ms(bare)} (python -c pass)"
    rows.append(
        benchreport.row(
            "doctree --help",
            benchreport.ms(help_s),
            base,
            f"{help_s / bare:.2f}x",
            "<= 2x bare python",
            help_s <= 2 * bare,
        )
    )
    rows.append(
        benchreport.row(
            "doctree read PATH",
            benchreport.ms(read_s),
            base,
            f"{read_s / bare:.2f}x",
            "<= 2x bare python",
            read_s <= 2 * bare,
        )
    )
    if git_s is not None:
        rows.append(
            benchreport.row(
                "git show HEAD:PATH (reference)",
                benchreport.ms(git_s),
                base,
                f"{git_s / bare:.2f}x",
            )
        )
    rows.append(
        benchreport.row(
            "editable-install finder at start-up",
            benchreport.ms(finder_s),
            base,
            f"{finder_s / bare:.1%} of bare python",
        )
    )
    print(f"runs of each: {repeat} (three interleaved rounds), median wall time")
    print(f"python -c pass            {benchreport.ms(bare)}")
    print(f"doctree --help            {benchreport.ms(help_s)}  {help_s / bare:.2f}x")
    print(f"doctree read PATH         {benchreport.ms(read_s)}  {read_s / bare:.2f}x")
    if git_s is not None:
        print(f"git show HEAD:PATH        {benchreport.ms(git_s)}")
    print(f"editable finder import    {benchreport.ms(finder_s)}  ({finder or 'none installed'})")
    benchreport.write(args.json_out, "startup", rows, figures)
    return 0 if help_s <= 2 * bare and read_s <= 2 * bare else 1


if __name__ == "__main__":
    sys.exit(main())

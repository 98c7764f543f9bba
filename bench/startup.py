"""Benchmark the start-up of the command line against bare python, in the same run.

    .venv/bin/python bench/startup.py            # 15 runs of each
    .venv/bin/python bench/startup.py --quick    # 7 runs of each

Whole-process wall time (median; the target's measure), and CPU time (user + system, median;
steadier when other work shares the machine), of:

- `python -c pass` (the baseline: the interpreter with this environment's site-packages);
- `doctree --help` (target <= 2x the baseline);
- `doctree read PATH` of one document in a small SQLite database (target <= 2x the baseline);
- a click group with no commands printing its `--help`: the floor of any click command line,
  for reference (the entry point, `doctree.console`, serves `--help` and `read PATH` without
  importing click, so neither pays it);
- `git show HEAD:PATH` of the same text in a one-commit repository, for reference.

Two installs, each against its own bare python:

- editable (the headline): this environment as it is, with the finder that `pip install -e`
  adds as a `.pth` file, which every start of this interpreter imports (`python -c pass`
  pays for it too; its cost is shown, read from `python -X importtime -c pass`);
- plain: a throwaway venv whose `.pth` file puts the checkout and this environment's
  site-packages on `sys.path` as plain lines, with no finder: how a wheel install starts.

With `--instructions` (needs valgrind), each command's instructions are counted too
(callgrind, one run each): a figure the machine's load does not move, unlike wall and CPU
time, so before and after compare on a busy machine.

Bytecode is cached as an installed doctree has it: the measured commands run without
PYTHONDONTWRITEBYTECODE (which would compile every doctree module on each start), their
`.pyc` files kept in a temporary PYTHONPYCACHEPREFIX and written by a warm-up run.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import site
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
import tomllib
import venv
from pathlib import Path

import benchreport

DOC = "~/memory/projects/apollo"
ROOT = Path(__file__).resolve().parents[1]  # the checkout: doctree/ is in it
#: A click group with no commands printing its help: what any click command line pays.
CLICK_FLOOR = "import click\nclick.group()(lambda: None)(['--help'], prog_name='x')"


def wall(cmd: list[str], repeat: int, env: dict[str, str]) -> float:
    """Median wall time of `cmd` in seconds, after one warm-up run."""
    subprocess.run(cmd, check=True, capture_output=True, env=env)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, env=env)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def child_env(pycache: Path) -> dict[str, str]:
    """This environment, with bytecode cached in `pycache` (see the module's docstring)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


def finder_cost(env: dict[str, str]) -> tuple[float, str]:
    """(seconds, module) of the editable finder's import at start-up; (0, "") if none."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "pass"], capture_output=True, text=True, env=env
    ).stderr
    total = 0.0
    names = []
    for line in out.splitlines():
        m = re.match(r"import time:\s+(\d+)\s+\|\s+(\d+)\s+\|(\s*)(\S+)", line)
        if m and m.group(4).startswith("__editable__") and m.group(4).endswith("_finder"):
            total += int(m.group(2)) / 1e6  # cumulative: the finder and what it imports
            names.append(m.group(4))
    return total, ", ".join(names)


def console_script(python: Path, where: Path) -> Path:
    """The `doctree` script pip writes for the console entry point of pyproject.toml, run by
    `python`."""
    entry = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]["doctree"]
    module, _, function = entry.partition(":")
    script = where / "doctree"
    script.write_text(
        f"#!{python}\nimport sys\nfrom {module} import {function}\n"
        f"if __name__ == '__main__':\n    sys.exit({function}())\n"
    )
    script.chmod(0o755)
    return script


def plain_install(d: Path) -> Path:
    """The python of a venv in `d` that imports doctree from the checkout and the rest from
    this environment's site-packages, put on `sys.path` by plain `.pth` lines (no finder)."""
    venv.EnvBuilder(with_pip=False, symlinks=True).create(d)
    purelib = Path(sysconfig.get_path("purelib", vars={"base": str(d), "platbase": str(d)}))
    lines = [str(ROOT), *site.getsitepackages()]
    (purelib / "doctree-plain.pth").write_text("\n".join(lines) + "\n")
    return d / "bin" / "python"


def runs(cmd: list[str], repeat: int, env: dict[str, str]) -> tuple[list[float], list[float]]:
    """(wall times, CPU times) in seconds of `repeat` runs of `cmd`, after one warm-up run.
    The CPU time (user + system, of the child) moves less than the wall time when other
    work shares the machine."""
    subprocess.run(cmd, check=True, capture_output=True, env=env)
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, env=env)
        walls.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return walls, cpus


def measure(
    python: str, doctree: list[str], db: Path, repeat: int, env: dict[str, str]
) -> dict[str, float]:
    """Median wall times (`bare`, `help`, `read`, `click`) and CPU times (`bare_cpu`, ...) of
    bare python, `doctree --help`, `doctree read` and the click floor, interleaved in three
    rounds so that a burst of load hits them alike."""
    cmds = {
        "bare": [python, "-c", "pass"],
        "help": [*doctree, "--help"],
        "read": [*doctree, "--db", str(db), "read", DOC],
        "click": [python, "-c", CLICK_FLOOR],
    }
    walls: dict[str, list[float]] = {k: [] for k in cmds}
    cpus: dict[str, list[float]] = {k: [] for k in cmds}
    for _ in range(3):
        for k, cmd in cmds.items():
            w, c = runs(cmd, max(1, repeat // 3), env)
            walls[k] += w
            cpus[k] += c
    return {k: statistics.median(v) for k, v in walls.items()} | {
        f"{k}_cpu": statistics.median(v) for k, v in cpus.items()
    }


def instructions(cmd: list[str], env: dict[str, str]) -> int:
    """Instructions executed by one run of `cmd` (valgrind's callgrind, after a warm-up run)."""
    subprocess.run(cmd, check=True, capture_output=True, env=env)
    err = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    ).stderr
    m = re.search(r"I\s+refs:\s+([\d,]+)", err)
    if m is None:
        raise RuntimeError(f"no instruction count in valgrind's output: {err[-300:]}")
    return int(m.group(1).replace(",", ""))


def count(python: str, doctree: list[str], db: Path, env: dict[str, str]) -> dict[str, int]:
    """Instructions of bare python, `--help`, `read` and the click floor (`measure`'s four)."""
    cmds = {
        "bare": [python, "-c", "pass"],
        "help": [*doctree, "--help"],
        "read": [*doctree, "--db", str(db), "read", DOC],
        "click": [python, "-c", CLICK_FLOOR],
    }
    return {k: instructions(cmd, env) for k, cmd in cmds.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="7 runs of each instead of 15")
    ap.add_argument("--repeat", type=int, help="runs of each command")
    ap.add_argument(
        "--instructions",
        action="store_true",
        help="also count each command's instructions with valgrind (steady under load)",
    )
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
        env = child_env(Path(d) / "pycache")
        db = Path(d) / "s.db"
        text = "# Apollo\n\nThe launch moved to Tuesday.\n"
        src = Path(d) / "apollo.md"
        src.write_text(text)
        subprocess.run(
            [*doctree, "--db", str(db), "write", DOC, "--file", str(src)],
            check=True,
            capture_output=True,
            env=env,
        )
        editable = measure(sys.executable, doctree, db, repeat, env)
        plain_python = plain_install(Path(d) / "plain")
        plain_doctree = [str(console_script(plain_python, Path(d)))]
        plain = measure(str(plain_python), plain_doctree, db, repeat, env)
        counted: dict[str, dict[str, int]] = {}
        if args.instructions and shutil.which("valgrind"):
            counted["editable"] = count(sys.executable, doctree, db, env)
            counted["plain"] = count(str(plain_python), plain_doctree, db, env)
        git_s = None
        if shutil.which("git"):
            repo = Path(d) / "git"
            git_env = {
                **os.environ,
                "GIT_AUTHOR_NAME": "b",
                "GIT_AUTHOR_EMAIL": "b@b",
                "GIT_COMMITTER_NAME": "b",
                "GIT_COMMITTER_EMAIL": "b@b",
            }
            subprocess.run(["git", "init", "-q", str(repo)], check=True)
            (repo / "apollo.md").write_text(text)
            subprocess.run(["git", "-C", str(repo), "add", "."], check=True)
            subprocess.run(["git", "-C", str(repo), "commit", "-qm", "x"], check=True, env=git_env)
            git_s = wall(["git", "-C", str(repo), "show", "HEAD:apollo.md"], repeat, git_env)
        finder_s, finder = finder_cost(env)
    bare, help_s, read_s = editable["bare"], editable["help"], editable["read"]
    figures.update(
        python_startup_s=bare,
        help_s=help_s,
        read_s=read_s,
        click_floor_s=editable["click"],
        finder_s=finder_s,
        plain_python_startup_s=plain["bare"],
        plain_help_s=plain["help"],
        plain_read_s=plain["read"],
        plain_click_floor_s=plain["click"],
        **{f"{k}_s": v for k, v in editable.items() if k.endswith("_cpu")},
        **{f"plain_{k}_s": v for k, v in plain.items() if k.endswith("_cpu")},
    )
    if git_s is not None:
        figures["git_show_s"] = git_s
    for install, got in (("editable install", editable), ("plain install, no finder", plain)):
        base = f"{benchreport.ms(got['bare'])} (python -c pass, {install})"
        for name, key, target in (
            ("doctree --help", "help", True),
            ("doctree read PATH", "read", True),
            ("click group --help, no commands (floor)", "click", False),
        ):
            ratio = got[key] / got["bare"]
            rows.append(
                benchreport.row(
                    f"{name} ({install})",
                    benchreport.ms(got[key]),
                    base,
                    f"{ratio:.2f}x",
                    "<= 2x bare python" if target else "",
                    ratio <= 2 if target else None,
                )
            )
    base = f"{benchreport.ms(bare)} (python -c pass, editable install)"
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
    print(f"runs of each: {repeat} (three interleaved rounds), medians, bytecode cached")
    print(f"{'':28s}{'editable: wall':>16s}{'CPU':>16s}{'plain: wall':>16s}{'CPU':>16s}")
    for label, key in (
        ("python -c pass", "bare"),
        ("doctree --help", "help"),
        ("doctree read PATH", "read"),
        ("click group --help (floor)", "click"),
    ):
        cells = [
            f"{benchreport.ms(got[k])} {got[k] / got[base]:.2f}x"
            for got in (editable, plain)
            for k, base in ((key, "bare"), (f"{key}_cpu", "bare_cpu"))
        ]
        print(f"{label:28s}" + "".join(f"{c:>16s}" for c in cells))
    if git_s is not None:
        print(f"git show HEAD:PATH                {benchreport.ms(git_s)}")
    print(f"editable finder import            {benchreport.ms(finder_s)}  ({finder or 'none'})")
    for install, got_i in counted.items():
        print(f"instructions ({install}):", end="")
        for key in ("bare", "help", "read", "click"):
            figures[f"{install}_{key}_instructions"] = got_i[key]
            print(f"  {key} {got_i[key] / 1e6:.1f} M ({got_i[key] / got_i['bare']:.2f}x)", end="")
        print()
    benchreport.write(args.json_out, "startup", rows, figures)
    return 0 if help_s <= 2 * bare and read_s <= 2 * bare else 1


if __name__ == "__main__":
    sys.exit(main())

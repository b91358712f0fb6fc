"""Fuzz the JSON API against its OpenAPI document on a live server; count examples and 5xx per operation.

    python bench/fuzz_api.py [--examples 100] [--no-coverage]

Runs tests/test_webapp_fuzz.py (Schemathesis: the examples, fuzzing and, unless --no-coverage,
coverage phases, valid and invalid requests) with more examples than `make test` does, logs
every answer, and prints per operation how many requests were sent and how many answered 5xx.
The test itself fails on the first 5xx, so a clean run prints 0 server errors everywhere.
"""

from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=100, help="examples per operation (fuzzing phase)")
    parser.add_argument("--no-coverage", action="store_true", help="skip the coverage phase (boundary values)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "answers.txt"
        env = {
            **os.environ,
            "SPINNER_FUZZ_EXAMPLES": str(args.examples),
            "SPINNER_FUZZ_LOG": str(log),
            "SPINNER_FUZZ_COVERAGE": "0" if args.no_coverage else "1",
        }
        started = time.perf_counter()
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-x",
                "-p",
                "no:cacheprovider",
                "tests/test_webapp_fuzz.py",
                "-k",
                "server_error",
            ],
            cwd=ROOT,
            env=env,
        )
        took = time.perf_counter() - started
        sent: collections.Counter[str] = collections.Counter()
        errors: collections.Counter[str] = collections.Counter()
        statuses: collections.Counter[int] = collections.Counter()
        for line in log.read_text().splitlines() if log.exists() else []:
            method, path, status = line.split(" ")
            sent[f"{method} {path}"] += 1
            statuses[int(status)] += 1
            if int(status) >= 500:
                errors[f"{method} {path}"] += 1
    width = max((len(k) for k in sent), default=10)
    print(f"{'operation':<{width}}  requests  5xx")
    for operation in sorted(sent):
        print(f"{operation:<{width}}  {sent[operation]:>8}  {errors[operation]:>3}")
    print(
        f"{sum(sent.values())} requests over {len(sent)} operations in {took:.0f} s; "
        f"{sum(errors.values())} server errors; statuses {dict(sorted(statuses.items()))}"
    )
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())

"""Item analysis at scale: time and peak memory of `qlint analyze` on a long CSV, against reading it with DuckDB alone.

    python benchmarks/analysis.py --persons 100000 --items 100     # 10 million answers
    python benchmarks/analysis.py --persons 10000 --items 100      # 1 million

Writes a simulated bank and long CSV (qlint.analysis.simulate) into a scratch folder, then runs each measured
step in a fresh process (peak RSS is per process) and prints seconds, peak MB, and the ratio to the baseline.
"""
from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BASELINE = """
import duckdb, sys
con = duckdb.connect(); con.execute("SET memory_limit = '1GB'"); con.execute("SET enable_progress_bar = false")
print(con.execute("SELECT count(*), count(DISTINCT person) FROM read_csv(?, header=true, all_varchar=true)",
                  [sys.argv[1]]).fetchone())
"""
ANALYZE = """
import sys
from qlint.cli.main import main
sys.exit(main(["analyze", sys.argv[1], sys.argv[2], "--format", "json", "-o", sys.argv[3], "--exit-zero"]))
"""


def measure(code: str, *args: str) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of a fresh Python process running ``code``."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code, *args], check=True)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024   # kB on Linux; the largest child so far
    return seconds, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--persons", type=int, default=10_000)
    parser.add_argument("--items", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    from qlint.analysis.simulate import simulate

    with tempfile.TemporaryDirectory(prefix="qlint-bench-") as scratch:
        folder = Path(scratch)
        sim = simulate(items=args.items, seed=args.seed, miskeyed=args.items // 10, dead=args.items // 10)
        (folder / "bank.yaml").write_text(sim.bank_yaml, encoding="utf-8")
        csv = folder / "responses.csv"
        start = time.perf_counter()
        with open(csv, "w", encoding="utf-8") as handle:
            handle.write("person,item,response\n")
            handle.writelines(sim.long_rows(args.persons, args.seed))
        print(f"wrote {args.persons * args.items:,} answers ({csv.stat().st_size / 1e6:.0f} MB) "
              f"in {time.perf_counter() - start:.1f} s")
        base_s, base_mb = measure(BASELINE, str(csv))
        # children's peak is a running maximum: the analysis runs second, so a larger peak is its own
        run_s, run_mb = measure(ANALYZE, str(csv), str(folder / "bank.yaml"), str(folder / "out.json"))
        print(f"duckdb read alone : {base_s:6.1f} s  peak {base_mb:7.0f} MB")
        print(f"qlint analyze     : {run_s:6.1f} s  peak {run_mb:7.0f} MB")
        print(f"ratio             : {run_s / base_s:6.2f} x time, {run_mb / base_mb:.2f} x memory")


if __name__ == "__main__":
    main()

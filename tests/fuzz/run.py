"""Runs every fuzz target for a given time: host/tools/dev fuzz [SECONDS [RUNS [TARGET...]]]
(docs/testing.md, "Fuzzing").

usage: run.py BUILD_DIR SECONDS [JOBS [RUNS [TARGET...]]]

BUILD_DIR is a configured clang build (libFuzzer). Every ctest test labelled `fuzz` is built
and run with its own corpus, dictionary and limits, for SECONDS instead of the few seconds the
test suite gives it, JOBS at a time. With RUNS, a target stops once it has run that many inputs
(SECONDS is then the most it may take): the recorded run is `run.py DIR 7200 2 10000000`.
With TARGETs (e.g. fuzz_pgn fuzz_san), only those run, in that order. Each target's row is printed to stderr
as it ends; a table of executions, their rate (per second and per CPU second of the target),
new inputs and crashes per target follows at the end; the exit status is 1 when a target
crashed, was interrupted (SIGINT: libFuzzer prints its counts, no crash) or could not run,
else 0."""
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed


def fuzz_tests(build):
    out = subprocess.run(["ctest", "--test-dir", build, "-L", "fuzz", "--show-only=json-v1"],
                         check=True, capture_output=True, text=True).stdout
    # A test whose program is not built yet has no command: the caller builds, then asks again.
    return [(t["name"], t.get("command")) for t in json.loads(out)["tests"]]


def row(name, execs, took, cpu, new, crashes, why):
    if execs is None:
        return "| %s | - | - | - | - | did not run: %s |" % (name, why)
    return "| %s | %s | %s | %s | %d | %d%s |" % (
        name, format(execs, ","), format(int(execs / took) if took else 0, ","),
        format(int(execs / cpu) if cpu else 0, ","), new, crashes, ": " + why if why else "")


def run_one(name, command, seconds, runs):
    if "-seed=1" not in command:
        return name, None, 0, 0, 0, 0, "not a libFuzzer program (configure with clang)"
    args = [a for a in command if not a.startswith(("-max_total_time=", "-runs="))]
    args[1:1] = ["-max_total_time=%d" % seconds, "-print_final_stats=1"]
    if runs:
        args[1:1] = ["-runs=%d" % runs]
    start = time.monotonic()
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         errors="replace")
    stderr = p.stderr.read()
    # The target's own processor time: on a shared machine its rate per CPU second is what
    # says how fast it is, its rate per second how much the machine gave it.
    _, status, usage = os.wait4(p.pid, 0)
    took = time.monotonic() - start
    cpu = usage.ru_utime + usage.ru_stime
    code = os.waitstatus_to_exitcode(status)
    execs = re.search(r"stat::number_of_executed_units:\s*(\d+)", stderr)
    new = re.search(r"stat::new_units_added:\s*(\d+)", stderr)
    crashed = code != 0
    why = ""
    if "libFuzzer: run interrupted" in stderr:  # stopped by hand (SIGINT, exit 72): no crash
        crashed, why = False, "interrupted"
    elif crashed:
        lines = [l for l in stderr.splitlines() if "ERROR" in l or "crash-" in l or "FAIL" in l]
        why = (lines[0] if lines else "exit status %d" % code)[:160]
    return (name, int(execs.group(1)) if execs else None, took, cpu,
            int(new.group(1)) if new else 0, 1 if crashed else 0, why)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    build, seconds = sys.argv[1], int(sys.argv[2])
    jobs = int(sys.argv[3]) if len(sys.argv) > 3 else os.cpu_count() or 2
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    only = sys.argv[5:]
    names = [n for n, _ in fuzz_tests(build)]
    unknown = [t for t in only if t not in names]
    if unknown:
        sys.exit("run.py: no fuzz target %s (there are: %s)" % (", ".join(unknown),
                                                               " ".join(names)))
    subprocess.run(["cmake", "--build", build, "-j", str(jobs), "--target"] + (only or names),
                   check=True, stdout=subprocess.DEVNULL)
    tests = fuzz_tests(build)
    if only:  # in the order named (the shortest first gets the most done in a given time)
        tests = sorted((t for t in tests if t[0] in only), key=lambda t: only.index(t[0]))
    print("fuzz: %d targets, %d s each%s, %d at a time" % (
        len(tests), seconds, " or %s inputs" % format(runs, ",") if runs else "", jobs), flush=True)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(run_one, t[0], t[1], seconds, runs) for t in tests]
        # One line per target as it ends: a long run shows its progress, and what ended
        # is on record even if the run is stopped before the table.
        for f in as_completed(futures):
            r = f.result()
            print("done in %d s: %s" % (r[2], row(*r)), file=sys.stderr, flush=True)
        results = [f.result() for f in futures]
    print("| target | executions | per second | per CPU second | new inputs | crashes |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    bad = 0
    for r in results:
        bad += 1 if r[1] is None or r[6] == "interrupted" else r[5]
        print(row(*r))
    total = sum(r[1] or 0 for r in results)
    print("total %s executions; %s" % (format(total, ","),
                                       "%d targets crashed, were interrupted or did not run" % bad if bad
                                       else "0 crashes"))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

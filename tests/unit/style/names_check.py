"""The style checks' names and their self-tests (docs/testing.md, the table of style checks).

usage: names_check.py BUILD_DIR [CTEST]

Reads the tests BUILD_DIR registers (`ctest --show-only=json-v1`; CTEST is the ctest program,
`ctest` from the PATH when not given) and names every `style.` test that breaks the agreed form:
  - a check is `style.<statement>`: what it checks, in lower-case words joined by `_` (three
    words at least, no `habit` numbering);
  - its self-test is `style.selftest_<the same statement>`: it runs the same check (program and,
    for style_check.sh, the same mode) on a fixture that breaks it and passes only when the
    check's output names the breach (PASS_REGULAR_EXPRESSION);
  - every check has its self-test and every self-test its check; both carry the label `style`.
Prints one line per problem and exits 1 when there is any."""
import json
import os
import re
import subprocess
import sys

WORDS = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+){2,}$")
NUMBERED = re.compile(r"(^|_)habit[0-9]*(_|$)")
SCRIPTS = ("bash", "sh", "python3", "python")


def tests_of(build, ctest):
    p = subprocess.run([ctest, "--test-dir", build, "--show-only=json-v1"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("names_check: ctest cannot list the tests of %s: %s" % (build, (p.stderr or p.stdout).strip()))
    out = p.stdout
    tests = {}
    for t in json.loads(out)["tests"]:
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        tests[t["name"]] = (t.get("command", []), props)
    return tests


def runs(command):
    """What a test runs: the program and, for a script, the script and its mode (a first
    argument that is a word, not a path: style_check.sh prefix)."""
    if not command:
        return ()
    prog = os.path.basename(command[0])
    if prog in SCRIPTS and len(command) > 1:
        mode = command[2:3] if len(command) > 2 and "/" not in command[2] else []
        return tuple([prog, os.path.basename(command[1])] + mode)
    return (prog,)


def problems(tests):
    style = {n: v for n, v in tests.items()
             if n.startswith("style.") or "style" in v[1].get("LABELS", [])}
    for name in sorted(style):
        command, props = style[name]
        if not name.startswith("style."):
            yield "%s: a style test's name begins with style." % name
            continue
        if "style" not in props.get("LABELS", []):
            yield "%s: no label style" % name
        statement = name[len("style."):]
        selftest = statement.startswith("selftest_")
        said = statement[len("selftest_"):] if selftest else statement
        if not WORDS.match(said) or NUMBERED.search(said):
            yield ("%s: not a statement of what is checked (lower-case words joined by _, "
                   "three at least, no habit numbers)" % name)
        if selftest:
            check = "style." + said
            if check not in style:
                yield "%s: a self-test of no check (%s is not a test)" % (name, check)
                continue
            if not props.get("PASS_REGULAR_EXPRESSION"):
                yield "%s: passes without naming a breach (no PASS_REGULAR_EXPRESSION)" % name
            if runs(command) != runs(style[check][0]):
                yield "%s: runs %s, its check %s runs %s" % (
                    name, " ".join(runs(command)) or "nothing", check,
                    " ".join(runs(style[check][0])) or "nothing")
        elif "style.selftest_" + statement not in style:
            yield "%s: no self-test (style.selftest_%s)" % (name, statement)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    tests = tests_of(sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else "ctest")
    found = list(problems(tests))
    if not any(n.startswith("style.") for n in tests):
        found.append("%s: no style. tests to check" % sys.argv[1])
    for line in found:
        print(line)
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()

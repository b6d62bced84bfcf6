"""Summarises h2spec JUnit reports as a Markdown page: passed, failed and skipped of the total for every target and
transport, then every failed case by its h2spec id (e.g. http2/6.9.2/2, which h2spec also takes as an argument to
run that case alone) with what h2spec expected and saw.

Reports are read from REPORTS_DIR/TARGET-TRANSPORT.xml (h2spec -j, as gatling/h2spec/run.sh writes them); a run that
produced no report has REPORTS_DIR/TARGET-TRANSPORT.error with one line saying why. With RUN names given
(e.g. tomcat-h2c), only those runs are read.

The exit status is 1 when a Sprout target failed a case, or did not run; Tomcat and Jetty are the
references, reported but never judged.

Usage: summarize.py REPORTS_DIR [RUN ...]
Tests: python3 -m unittest discover -s gatling/h2spec
"""
import dataclasses
import datetime
import os
import platform
import re
import sys
import xml.etree.ElementTree as ElementTree

TARGETS = ["nio-platform", "nio-virtual", "hybrid-platform", "hybrid-virtual", "tomcat", "jetty"]
TRANSPORTS = ["h2c", "tls"]
REFERENCES = {"tomcat", "jetty"}
# h2spec writes a failure's text into the report unescaped (Go's innerxml), frame payloads' raw bytes included, and
# the control characters among them make the XML malformed.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


@dataclasses.dataclass(frozen=True)
class Case:
    id: str
    description: str
    outcome: str  # passed, failed or skipped
    detail: str = ""


@dataclasses.dataclass(frozen=True)
class Run:
    target: str
    transport: str
    cases: tuple = ()
    problem: str = ""  # why there is no report

    def count(self, *outcomes):
        return sum(1 for case in self.cases if case.outcome in outcomes)

    def failed(self):
        return [case for case in self.cases if case.outcome == "failed"]

    def judged(self):
        return self.target not in REFERENCES

    def passes(self):
        return not self.problem and not self.failed()


def parse_name(name):
    """(target, transport) of a run name such as hybrid-virtual-tls."""
    target, _, transport = name.rpartition("-")
    if not target or transport not in TRANSPORTS:
        raise ValueError("not a run name (TARGET-h2c or TARGET-tls): " + name)
    return target, transport


def parse_cases(xml_text):
    """The cases of one h2spec JUnit report. The report names a case only by its group (package="http2/6.9.2") and
    description; its number is its position in the group, as h2spec counts, which holds because run.sh lets h2spec
    filter by whole groups only. h2spec 2.2.1 files every failed case as <error> (its check for <failure> never
    matches), so both count as failed."""
    cases = []
    xml_text = _NOT_XML.sub(lambda m: "\\x%02x" % ord(m.group()), xml_text)
    for suite in ElementTree.fromstring(xml_text).iter("testsuite"):
        for seq, testcase in enumerate(suite.iter("testcase"), start=1):
            group = testcase.get("package") or suite.get("package")
            outcome, detail = "passed", ""
            for tag in ("failure", "error", "skipped"):
                element = testcase.find(tag)
                if element is not None:
                    outcome = "skipped" if tag == "skipped" else "failed"
                    detail = " ".join((element.text or "").split())
                    break
            cases.append(Case("%s/%d" % (group, seq), testcase.get("classname", ""), outcome, detail))
    return tuple(cases)


def load(reports, names=None):
    """Every run in REPORTS_DIR (or the named ones), in the order of TARGETS and TRANSPORTS, unknown targets last."""
    if names is None:
        names = sorted({os.path.splitext(f)[0] for f in os.listdir(reports) if f.endswith((".xml", ".error"))})
    runs = []
    for name in names:
        target, transport = parse_name(name)
        xml_path, error_path = (os.path.join(reports, name + ext) for ext in (".xml", ".error"))
        if os.path.exists(error_path):
            with open(error_path) as f:
                runs.append(Run(target, transport, problem=f.read().strip() or "no report"))
        elif os.path.exists(xml_path):
            with open(xml_path, encoding="utf-8", errors="replace") as f:
                runs.append(Run(target, transport, parse_cases(f.read())))
        else:
            runs.append(Run(target, transport, problem="no report in " + reports))

    def order(run):
        known = run.target in TARGETS
        return (not known, TARGETS.index(run.target) if known else run.target, TRANSPORTS.index(run.transport))
    return sorted(runs, key=order)


def render(runs, date, host):
    lines = ["# h2spec", "",
             "h2spec 2.2.1 `--strict` (every case, the strict ones too) against the sample app with "
             "`server.http2.enabled=true`: h2c is HTTP/2 with prior knowledge over plain TCP, tls is HTTP/2 "
             "negotiated by ALPN. Written by gatling/h2spec/run.sh on %s (%s). A failed case lists what h2spec "
             "expected (one of the frames or events), then what it saw. Tomcat and Jetty are references; only Sprout's targets "
             "fail the run." % (date, host), "",
             "| target | transport | passed | failed | skipped | total |",
             "|---|---|---:|---:|---:|---:|"]
    for run in runs:
        if run.problem:
            lines.append("| %s | %s | - | - | - | not run: %s |" % (run.target, run.transport, run.problem))
        else:
            lines.append("| %s | %s | %d | %d | %d | %d |" % (run.target, run.transport, run.count("passed"),
                                                             len(run.failed()), run.count("skipped"), len(run.cases)))
    for run in runs:
        if run.failed():
            lines += ["", "## %s %s: %d failed" % (run.target, run.transport, len(run.failed())), ""]
            lines += ["- `%s` %s: %s" % (case.id, case.description, case.detail) for case in run.failed()]
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    runs = load(argv[1], argv[2:] or None)
    print(render(runs, datetime.date.today().isoformat(), platform.node()), end="")
    return 0 if all(run.passes() for run in runs if run.judged()) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

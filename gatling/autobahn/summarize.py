"""Summarises Autobahn|Testsuite fuzzingclient reports as a Markdown page: the targets, how a case is counted, counts
per outcome for every target and combination found, then every case that is not OK with a short explanation.

Reports are read from REPORTS_DIR/TARGET/COMBINATION/index.json (as gatling/autobahn/run.sh writes them), with the
container's limits, when the target has them, from REPORTS_DIR/TARGET/COMBINATION-limits.json.

Usage: summarize.py REPORTS_DIR
Tests: python3 -m unittest discover -s gatling/autobahn
"""
import collections
import datetime
import json
import os
import platform
import sys

LIMIT = "LIMIT 1009"
ORDER = ["OK", "NON-STRICT", "INFORMATIONAL", "UNIMPLEMENTED", LIMIT, "FAILED"]
TARGETS = ["engine", "spring", "endpoint", "default-limits", "reactive"]
COMBINATIONS = ["nio-platform", "nio-virtual", "hybrid-platform", "hybrid-virtual", "tomcat", "netty"]
MESSAGE_TOO_BIG = 1009

TARGET_TEXT = {
    "engine": "the engine's own echo (`io.sprout.engine.hello.HelloServer`), no Spring; path `/`.",
    "spring": "a Spring `WebSocketHandler` echo (`@EnableWebSocket`, text and binary) whose `handleTransportError` "
              "closes with 1011 (`CloseStatus.SERVER_ERROR`) while the session is open, as a typical user writes "
              "it, with the container's limits raised to 16 MiB by a `ServletServerContainerFactoryBean`; "
              "`/autobahn/spring` in the sample app's `autobahn` profile.",
    "endpoint": "a Jakarta `@ServerEndpoint` echo (text and binary) whose `@OnError` closes with 1011 while the "
                "session is open, exported by Spring's `ServerEndpointExporter`, under the same 16 MiB limits; "
                "`/autobahn/endpoint`.",
    "default-limits": "a `TextWebSocketHandler` echo (binary echoed too), no STOMP, under the server's default "
                      "limits (Sprout: 64 KiB, `sprout.server.websocket.max-*-message-size`; Tomcat: 8 KiB); "
                      "`/autobahn/default-limits`.",
    "reactive": "a Spring WebFlux `WebSocketHandler` echo (`session.send(session.receive()...)`, text and binary "
                "kept apart, each payload retained and sent back as it came), mapped by a `SimpleUrlHandlerMapping` "
                "in the sample app's WebFlux build (`sprout-webflux` Maven profile) and upgraded by the server's own "
                "`RequestUpgradeStrategy`, with Sprout's limits raised to 16 MiB "
                "(`--sprout.server.websocket.max-text-message-size=16MB`, `max-binary-message-size`); "
                "`/autobahn/reactive`.",
}

# Why the suite leaves these to the implementation (the INFORMATIONAL cases).
NOTES = {
    "7.1.6": "a 256 KiB message, a close and a ping sent back to back; the outcome is implementation-defined",
    "7.13.1": "close code 5000, which the RFC leaves to the application",
    "7.13.2": "close code 65535, which the RFC leaves to the application",
}

KIB = 1024
MIB = 1024 * KIB
# (payload length, message count, timeout, auto-fragment size) of cases 12.x.y and 13.x.y: case12_x_x.MSG_SIZES.
_COMPRESSED_SIZES = [16, 64, 256, 1024, 4096, 8192, 16384, 32768, 65536, 131072,
                     8192, 16384, 32768, 65536, 131072, 131072, 131072, 131072]
# Test data of cases 12.1 to 12.5 in the suite's order (WS_COMPRESSION_TESTDATA_KEYS): json, lena512 image,
# Faust (sent as binary), HTML, ooms: 12.2, 12.3 and 12.5 are binary.
_COMPRESSED_BINARY = {2, 3, 5}


def message(case_id):
    """(kind, bytes) of the largest message a case sends, read off the suite's case sources
    (autobahntestsuite/case/case*.py); None for cases whose messages are all below 64 KiB. 9.9.1 streams 4 KiB
    frames of one text message for 3 s, so its size has no bound."""
    parts = [int(p) for p in case_id.split(".")]
    major, minor, last = (parts + [0, 0])[:3]
    if major == 1 and minor in (1, 2) and last in (6, 7, 8):
        return ("text" if minor == 1 else "binary", 65535 if last == 6 else 65536)
    if major == 7 and minor == 1 and last == 6:
        return "text", 256 * KIB
    if major == 9 and minor in (1, 2) and 1 <= last <= 6:
        return "text" if minor == 1 else "binary", [64 * KIB, 256 * KIB, MIB, 4 * MIB, 8 * MIB, 16 * MIB][last - 1]
    if major == 9 and minor in (3, 4):
        return "text" if minor == 3 else "binary", 4 * MIB
    if major == 9 and minor in (5, 6):
        return "text" if minor == 5 else "binary", MIB
    if major == 9 and minor == 9:
        return "text", float("inf")
    if major == 10:
        return "text", 65536
    if major in (12, 13) and 1 <= last <= len(_COMPRESSED_SIZES):
        binary = major == 12 and minor in _COMPRESSED_BINARY
        return "binary" if binary else "text", _COMPRESSED_SIZES[last - 1]
    return None


def raw_worst(case):
    """The worse of a case's protocol and closing-handshake results, as the suite names them."""
    results = [case["behavior"], case["behaviorClose"]]
    return max(results, key=lambda r: ORDER.index(r) if r in ORDER else len(ORDER))


def outcome(case_id, case, report, limits):
    """The case's outcome, one of ORDER. The suite's own results stand, except that any result it does not name
    above (WRONG CODE, UNCLEAN, FAILED BY CLIENT) counts as FAILED, and that a failure is LIMIT 1009 when, and only
    when, the case's message is larger than the container's limit for its kind and the server itself closed the
    connection with 1009."""
    result = raw_worst(case)
    if result in ORDER and result != "FAILED":
        return result
    size = message(case_id)
    if (limits and size and size[1] > limits[size[0]] and case.get("remoteCloseCode") == MESSAGE_TOO_BIG
            and report is not None and not report.get("closedByMe", True)):
        return LIMIT
    return "FAILED"


HOW_TO_RUN = """\
```
gatling/autobahn/run.sh                                   # engine, the four combinations (as before)
TARGET=spring gatling/autobahn/run.sh                     # spring, the four combinations
TARGET=endpoint gatling/autobahn/run.sh nio-platform      # one combination
TARGET=default-limits gatling/autobahn/run.sh tomcat      # the same app on Tomcat
TARGET="spring endpoint default-limits" gatling/autobahn/run.sh nio-platform nio-virtual hybrid-platform hybrid-virtual tomcat
TARGET=reactive gatling/autobahn/run.sh nio-platform      # WebFlux on Sprout, one combination
TARGET=reactive gatling/autobahn/run.sh netty             # the same WebFlux build on Reactor Netty
```

Knobs as before: CASES, EXCLUDE, PORT, SKIP_BUILD (1 = use the jars already built: `sprout-engine`,
`sample-boot-app-sprout.jar`, `-sprout-webflux.jar`, `-tomcat.jar`, `-netty.jar`, for runs side by side on
different PORTs), REPORTS.
Reports land in REPORTS/TARGET/COMBINATION/; `python3 gatling/autobahn/summarize.py target/autobahn` summarises
whatever is there. The sample app runs the targets with `--spring.profiles.active=autobahn` and
`--autobahn.limits=raised` (spring, endpoint, reactive) or `default` (default-limits); without the profile it is
unchanged. On Reactor Netty, `raised` gives the reactive echo an upgrade strategy whose largest frame payload, and
so largest message, is 16 MiB (64 KiB by default).
"""


def size_text(size):
    kind, length = size
    if length == float("inf"):
        return "%s, unbounded" % kind
    if length >= MIB and length % MIB == 0:
        return "%s, %d MiB" % (kind, length // MIB)
    if length >= KIB and length % KIB == 0:
        return "%s, %d KiB" % (kind, length // KIB)
    return "%s, %d bytes" % (kind, length)


def explain(case_id, case, report, limits, result):
    """One line on what happened: the case's message, who closed with which code, and the suite's own verdict."""
    words = []
    if case_id in NOTES:
        words.append(NOTES[case_id])
    size = message(case_id)
    if size:
        limit = " over the %s limit" % size_text((size[0], limits[size[0]])).split(", ")[1] \
            if limits and size[1] > limits[size[0]] else ""
        words.append("message %s%s" % (size_text(size), limit))
    code = case.get("remoteCloseCode")
    if report is not None:
        closer = "client" if report.get("closedByMe") else "server"
        words.append("%s closed first, server's code %s" % (closer, code if code is not None else "none"))
    elif code is not None:
        words.append("server's close code %s" % code)
    if result != "INFORMATIONAL":
        # The suite's words for the halves it did not pass, each once (both halves often say the same).
        said = []
        if report is not None:
            for half, text in (("behavior", "result"), ("behaviorClose", "resultClose")):
                if case[half] != "OK" and report.get(text) and report[text] not in said:
                    said.append(report[text].rstrip("."))
        words.append("suite %s/%s%s" % (case["behavior"], case["behaviorClose"],
                                        ": " + ". ".join(said) if said else ""))
    return "; ".join(words)


def case_key(case_id):
    return [int(p) for p in case_id.split(".")]


def ordered(names, known):
    return sorted(names, key=lambda n: (known.index(n) if n in known else len(known), n))


def load(reports):
    """Every run under REPORTS_DIR as (target, combination, {case id: (outcome, explanation)})."""
    runs = []
    if not os.path.isdir(reports):
        return runs
    for target in ordered([t for t in os.listdir(reports) if os.path.isdir(os.path.join(reports, t))], TARGETS):
        folder = os.path.join(reports, target)
        combos = [c for c in os.listdir(folder) if os.path.exists(os.path.join(folder, c, "index.json"))]
        for combination in ordered(combos, COMBINATIONS):
            with open(os.path.join(folder, combination, "index.json")) as f:
                cases = next(iter(json.load(f).values()))
            limits = read_json(os.path.join(folder, combination + "-limits.json"))
            results = {}
            for case_id, case in cases.items():
                report = read_json(os.path.join(folder, combination, case.get("reportfile") or ""))
                result = outcome(case_id, case, report, limits)
                results[case_id] = (result, explain(case_id, case, report, limits, result))
            runs.append((target, combination, results))
    return runs


def read_json(path):
    if not os.path.isfile(path):
        return None
    with open(path) as f:
        return json.load(f)


def render(runs, today, host):
    lines = ["# Autobahn|Testsuite results", "",
             "Generated by `gatling/autobahn/run.sh` on %s (%s), fuzzingclient mode, from every report under its "
             "REPORTS folder. A case counts as the worse of its protocol and closing-handshake results." % (today, host),
             "", "## Targets", ""]
    lines += ["- `%s`: %s" % (t, TARGET_TEXT[t]) for t in TARGETS]
    lines += ["", "Each runs in the four combinations nio/hybrid × platform/virtual; for comparison, the Spring MVC "
              "targets also on Tomcat (`tomcat`, the same app built with the tomcat Maven profile) and `reactive` on "
              "Reactor Netty (`netty`, the WebFlux build with the netty Maven profile).", "",
              "## How a case is counted", "",
              "- OK, NON-STRICT, INFORMATIONAL (the RFC leaves the behaviour open), UNIMPLEMENTED: the suite's verdict.",
              "- LIMIT 1009: an expected refusal, not a pass. The suite expects every message echoed whatever its "
              "size: on a size case closed by the server with 1009 it reports FAILED twice, FAILED for the missing "
              "echo and FAILED for the close (\"The connection was failed by the wrong endpoint\", as it expects to "
              "close itself with 1000). Such a case counts as LIMIT 1009 only when the case's message (read off the "
              "suite's sources: 1.1.6–1.1.8, 1.2.6–1.2.8, 7.1.6, 9.1–9.6, 9.9.1, 10.1.1, 12.x, 13.x) is larger than "
              "the container's limit for its kind (text or binary, as `GET /autobahn/limits` reported it) and the "
              "server closed first with 1009. The same close under the limit, or any other code (1011 above all) "
              "over it, is FAILED.",
              "- FAILED: everything else, including the suite's WRONG CODE, UNCLEAN and FAILED BY CLIENT.",
              "", "## How to run", "", HOW_TO_RUN, "## Results", ""]
    if not runs:
        return "\n".join(lines + ["No reports found."]) + "\n"
    lines += ["| target | combination | cases | " + " | ".join(ORDER) + " |", "|---" * (len(ORDER) + 3) + "|"]
    for target, combination, results in runs:
        counts = collections.Counter(r for r, _ in results.values())
        lines.append("| %s | %s | %d | %s |" % (target, combination, len(results),
                                                " | ".join(str(counts.get(r, 0)) for r in ORDER)))
    lines += ["", "## Cases not OK", ""]
    for target in ordered({t for t, _, _ in runs}, TARGETS):
        grouped = collections.OrderedDict()
        for t, combination, results in runs:
            if t != target:
                continue
            for case_id in sorted(results, key=case_key):
                result, why = results[case_id]
                if result != "OK":
                    grouped.setdefault((tuple(case_key(case_id)), case_id, result, why), []).append(combination)
        lines += ["### %s" % target, ""]
        if not grouped:
            lines += ["Every case is OK in every combination.", ""]
            continue
        for (_, case_id, result, why), combos in sorted(grouped.items()):
            lines.append("- %s %s (%s): %s" % (case_id, result, ", ".join(combos), why))
        lines.append("")
    return "\n".join(lines)


def main(reports):
    sys.stdout.write(render(load(reports), datetime.date.today().isoformat(), platform.node()))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])

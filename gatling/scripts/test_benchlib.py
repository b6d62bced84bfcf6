"""Tests of the target names in bench-lib.sh (sourced by bash): python3 -m unittest discover -s gatling/scripts"""

import subprocess
import unittest
from pathlib import Path

import benchreport

BENCH_LIB = Path(__file__).with_name("bench-lib.sh")


def bash(script):
    """Runs script after sourcing bench-lib.sh and returns its output lines."""
    result = subprocess.run(["bash", "-c", f'. "{BENCH_LIB}"\n{script}'], capture_output=True, text=True,
                            check=True)
    return result.stdout.splitlines()


def describe(target):
    """(jar flavour, server, stack, threads, mode) of a target, as the runners see it."""
    line = bash(f'echo "$(flavour_of {target}) $(server_of {target}) $(stack_of {target}) $(threads_of {target})'
                f' $(mode_of {target})"')[0]
    return tuple(line.split())


class TargetTest(unittest.TestCase):

    def test_webflux_on_sprout_runs_its_own_jar_and_answers_as_sprout(self):
        self.assertEqual(describe("sprout-webflux-nio-platform"),
                         ("sprout-webflux", "sprout", "reactive", "platform", "nio"))
        self.assertEqual(describe("sprout-webflux-hybrid-virtual"),
                         ("sprout-webflux", "sprout", "reactive", "virtual", "hybrid"))

    def test_webflux_on_tomcat_runs_its_own_jar_and_answers_as_tomcat(self):
        self.assertEqual(describe("tomcat-webflux-platform"),
                         ("tomcat-webflux", "tomcat", "reactive", "platform", "reactive"))

    def test_the_other_targets_keep_their_names(self):
        self.assertEqual(describe("sprout-nio-virtual"), ("sprout", "sprout", "servlet", "virtual", "nio"))
        self.assertEqual(describe("tomcat-platform"), ("tomcat", "tomcat", "servlet", "platform", "servlet"))
        self.assertEqual(describe("netty"), ("netty", "netty", "reactive", "virtual", "reactive"))

    def test_webflux_on_sprout_gets_the_engine_properties_of_the_spring_mvc_targets(self):
        for mode in ("nio", "hybrid"):
            for threads in ("platform", "virtual"):
                webflux, mvc = bash(f"props_of sprout-webflux-{mode}-{threads}; props_of sprout-{mode}-{threads}")
                self.assertEqual(webflux, mvc)
                self.assertIn(f"--sprout.server.execution-mode={mode} --sprout.server.thread-type={threads}", webflux)

    def test_a_row_carries_the_stack(self):
        self.assertEqual(bash("meta_of sprout-webflux-nio-virtual"),
                         ["target=sprout-webflux-nio-virtual server=sprout stack=reactive threads=virtual mode=nio"])

    def test_webflux_targets_are_known_but_not_in_the_default_list(self):
        default, webflux = bash('echo "${ALL_TARGETS[*]}"; echo "${WEBFLUX_TARGETS[*]}"')
        self.assertNotIn("sprout-webflux", default)
        self.assertEqual(bash(" ".join(f"is_target {t} && echo {t};" for t in webflux.split())), webflux.split())
        self.assertEqual(bash("is_target sprout-webflux || echo unknown"), ["unknown"])

    def test_the_report_orders_and_colours_every_target(self):
        targets = " ".join(bash('echo "${ALL_TARGETS[*]} ${WEBFLUX_TARGETS[*]} ${BRIDGE_TARGETS[*]}"')).split()
        self.assertEqual(targets, benchreport.TARGET_ORDER)


if __name__ == "__main__":
    unittest.main()

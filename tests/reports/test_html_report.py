"""The HTML report opened in a real browser (Debian's chromium, driven headless by Selenium): the
behaviours are there, an explanation expands, the offending bytes are marked, and no request
leaves the page. Skipped, with the reason, where no browser is installed (.ci/run installs one)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.cli_runs import check

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
ARGUMENTS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.skip(
            "no chromium and chromium-driver installed (apt-get install chromium chromium-driver)"
        )
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ARGUMENTS:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    try:
        yield driver
    finally:
        driver.quit()


SPEC = "support.broken_codecs:NaiveBitDecoder"


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """Return the HTML report of NaiveBitDecoder on every vector (Kuhn's long inputs too) and
    its JSON report, written by one run that the tests of this module read."""
    folder = tmp_path_factory.mktemp("html")
    page, written = folder / "report.html", folder / "report.json"
    run = check(SPEC, "--html", str(page), "--json", str(written), "--quiet")
    assert run.status == 1, run.err
    document: dict[str, Any] = json.loads(written.read_text(encoding="utf-8"))
    return page, document


def requests(driver: Any) -> list[str]:
    """Return the URL of every request the page made, from Chrome's network log."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


@pytest.mark.slow
def test_the_html_report_shows_each_behaviour_and_expands_an_explanation(
    browser: Any, report: tuple[Path, dict[str, Any]]
) -> None:
    from selenium.webdriver.common.by import By

    page, document = report
    spec = SPEC
    behaviours = document["behaviours"]
    browser.get_log("performance")  # forget what came before
    browser.get(page.as_uri())
    assert browser.title == f"utf8cert: {spec}"
    groups = browser.find_elements(By.CSS_SELECTOR, "details.behaviour")
    assert len(groups) == len(behaviours) >= 2
    first = groups[0]
    summary = first.find_element(By.TAG_NAME, "summary")
    assert "let ill-formed input through (overlong)" in summary.text
    explanation = first.find_element(By.TAG_NAME, "pre")
    # A behaviour that fails the run (must, at --fail-on must) is open from the start; one
    # below the gate (should) is closed until asked.
    failing = {b["id"] for b in behaviours if b["level"] == "must"}
    for group, behaviour in zip(groups, behaviours, strict=True):
        assert (group.get_attribute("open") is not None) == (behaviour["id"] in failing)
    assert explanation.is_displayed()
    assert "accepted ill-formed input" in explanation.text
    summary.click()  # closes it
    assert first.get_attribute("open") is None and not explanation.is_displayed()
    summary.click()
    assert explanation.is_displayed()
    marks = explanation.find_elements(By.TAG_NAME, "mark")
    example = document["differences"][behaviours[0]["example"]]
    data = bytes.fromhex(example["input"])
    marked = sorted({i for start, end in example["marks"] for i in range(start, end)})
    assert marked == [0, 1]  # C0 and AF: two maximal subparts, marked as one run
    assert [mark.text for mark in marks] == [data[0:2].hex(" ").upper()] == ["C0 AF"]
    assert "NOT conformant" in browser.find_element(By.ID, "verdict").text
    assert browser.find_elements(By.ID, "capability-decode")
    assert requests(browser) == [page.as_uri()]


def test_vector_ids_link_to_their_entry_and_back_to_their_behaviours(
    browser: Any, report: tuple[Path, dict[str, Any]]
) -> None:
    from selenium.webdriver.common.by import By

    page, document = report
    behaviours = document["behaviours"]
    browser.get(page.as_uri())
    first = browser.find_elements(By.CSS_SELECTOR, "details.behaviour")[0]
    link = first.find_element(By.CSS_SELECTOR, "p a")
    vector_id = behaviours[0]["vectors"][0]
    assert link.text == vector_id
    link.click()
    assert browser.current_url.endswith(f"#vector-{vector_id}")
    entry = browser.find_element(By.ID, f"vector-{vector_id}")
    assert entry.is_displayed() and entry.text.startswith(vector_id)
    # Back to every behaviour the vector shows, by the JSON report's count.
    showing = [i for i, b in enumerate(behaviours, start=1) if vector_id in b["vectors"]]
    back = [a.get_attribute("href") for a in entry.find_elements(By.TAG_NAME, "a")[1:]]
    assert [href.rsplit("#", 1)[1] for href in back] == [f"behaviour-{i}" for i in showing]
    # Every id the capability tables list links to an entry that exists.
    for cell in browser.find_elements(By.CSS_SELECTOR, "td a"):
        target = cell.get_attribute("href").rsplit("#", 1)[1]
        assert browser.find_elements(By.ID, target), target


@pytest.mark.slow
def test_long_lines_wrap_inside_a_narrow_window(
    browser: Any, report: tuple[Path, dict[str, Any]]
) -> None:
    # Kuhn's 64 KiB-scale inputs give explanation lines of hundreds of code points; on a
    # narrow window none may run past its box (cut off, or a scroll bar to find it).
    page, _ = report
    browser.set_window_size(480, 900)
    try:
        browser.get(page.as_uri())
        widest = browser.execute_script(
            "document.querySelectorAll('details').forEach(d => d.open = true);"
            "const lines = [...document.querySelectorAll('pre, p, li, td, summary')];"
            "return Math.max(...lines.map(e => e.scrollWidth - e.clientWidth));"
        )
        long_line = browser.execute_script(
            "return Math.max(...[...document.querySelectorAll('pre')]"
            ".map(e => Math.max(...e.textContent.split('\\n').map(l => l.length))));"
        )
    finally:
        browser.set_window_size(1280, 900)
    assert long_line > 120  # there are lines wider than the window to wrap
    assert widest <= 1

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
from cli_runs import check, check_once

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


def requests(driver: Any) -> list[str]:
    """Return the URL of every request the page made, from Chrome's network log."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def test_the_html_report_shows_each_behaviour_and_expands_an_explanation(
    browser: Any, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    page = tmp_path / "report.html"
    spec = "broken_codecs:NaiveBitDecoder"
    assert check(spec, "--html", str(page), "--quiet").status == 1
    document = check_once(spec, "--json", "-", "--quiet").json()
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
    assert not explanation.is_displayed()
    summary.click()
    assert first.get_attribute("open") is not None
    assert explanation.is_displayed()
    assert "accepted ill-formed input" in explanation.text
    marks = explanation.find_elements(By.TAG_NAME, "mark")
    example = document["differences"][behaviours[0]["example"]]
    data = bytes.fromhex(example["input"])
    marked = sorted({i for start, end in example["marks"] for i in range(start, end)})
    assert marked == [0, 1]  # C0 and AF: two maximal subparts, marked as one run
    assert [mark.text for mark in marks] == [data[0:2].hex(" ").upper()] == ["C0 AF"]
    assert "NOT conformant" in browser.find_element(By.ID, "verdict").text
    assert browser.find_elements(By.ID, "capability-decode")
    assert requests(browser) == [page.as_uri()]

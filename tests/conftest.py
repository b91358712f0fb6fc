"""The tests' fixtures, all here so that pytest injects them by name: no test module imports
another, or a fixture. Builders shared by several modules are in `tests/support/`."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from tests.support.browser import launch, without_csp
from tests.support.camera import Script
from tests.support.page import ARGS, CHROMIUM, PHONE, SHOTS, WAIT
from tests.support.servers import Running, chromium_path, start
from tests.support.tournament import Clock, Director
from tests.support.web import Table, app_on_fresh_sqlite, app_on_postgresql, new_table


@pytest.fixture
def cli_runner():
    from click.testing import CliRunner

    return CliRunner()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the test, so a fixture can tell that its test failed (screenshots)."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


# -- the companion's app, its client, a match -------------------------------------------------------


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """`@pytest.mark.database("sqlite", "postgresql")` runs a test once on each database it names."""
    marker = metafunc.definition.get_closest_marker("database")
    if marker is not None and "database" in metafunc.fixturenames:
        params = [pytest.param(name, marks=pytest.mark.slow) if name == "postgresql" else name for name in marker.args]
        metafunc.parametrize("database", params, indirect=True)


@pytest.fixture
def database(request: pytest.FixtureRequest) -> str:
    """Which database the app stores in: SQLite unless the test is marked for others."""
    return getattr(request, "param", "sqlite")


_databases = itertools.count()


@pytest.fixture(scope="session")
def postgres() -> Iterator[Any]:
    """A throwaway PostgreSQL server for the session; the test skips where it is not installed."""
    from tests.support.postgres import running
    from webapp import fanout

    for server in running():
        yield server
        fanout.stop_all()  # before the server goes, so no listener is left knocking


@pytest.fixture
def clock() -> Clock:
    """The tournament's clock, moved by the test."""
    return Clock()


@pytest.fixture
def app(request: pytest.FixtureRequest, tmp_path, clock, database) -> Iterator[Any]:
    """The companion on a fresh database: SQLite under tmp_path, or a new database on the throwaway
    PostgreSQL server (with the scripted reader). Streams beat often and end soon, so a test's
    stream frees its thread quickly; the tournament's clock is the test's."""
    if database == "postgresql":
        url = request.getfixturevalue("postgres").create_database(f"spinner_{next(_databases)}")
        yield from app_on_postgresql(tmp_path, url, TOURNAMENT_CLOCK=clock, SPINNER_READER=Script(), READ_WAIT=10.0)
    else:
        yield from app_on_fresh_sqlite(tmp_path, TOURNAMENT_CLOCK=clock, SSE_HEARTBEAT=0.2, SSE_LIFETIME=5.0)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def table(client) -> Table:
    """A `partners` match with its first hand started."""
    return new_table(client)


@pytest.fixture
def director(client) -> Director:
    """A tournament opened through the API, with its director's token."""
    response = client.post("/api/tournaments", json={"title": "Club night", "who": "Rosa"})
    assert response.status_code == 201, response.get_json()
    return Director(client, response.get_json())


# -- the camera, with a scripted reader ---------------------------------------------------------------


@pytest.fixture
def script() -> Script:
    return Script()


@pytest.fixture
def cam(tmp_path, script) -> Table:
    """A `partners` match whose frames the scripted reader reads; its app is `cam.app`."""
    from tests.support.camera import make_app

    app = make_app(tmp_path, SPINNER_READER=script)
    t = new_table(app.test_client())
    t.app = app
    return t


# -- real servers and Chromium ----------------------------------------------------------------------


@pytest.fixture
def live_server(tmp_path) -> Iterator[Running]:
    # Short-lived streams with frequent heartbeats: a closed page frees its thread within a second.
    server, running = start(tmp_path, SSE_HEARTBEAT=1.0, SSE_LIFETIME=30.0)
    yield running
    server.stop()


@pytest.fixture
def scripted(tmp_path) -> Iterator[Running]:
    """A live server whose reader is the scripted stand-in (`scripted.script`)."""
    script = Script()
    server, running = start(tmp_path, SSE_HEARTBEAT=1.0, SSE_LIFETIME=30.0, SPINNER_READER=script, READ_WAIT=10.0)
    running.script = script
    yield running
    server.stop()


@pytest.fixture
def readerless(tmp_path) -> Iterator[Running]:
    """A live server without models: it cannot read photos."""
    server, running = start(tmp_path, SSE_HEARTBEAT=1.0, SSE_LIFETIME=30.0, SPINNER_MODELS=tmp_path / "no-models")
    yield running
    server.stop()


@pytest.fixture
def models_server(tmp_path) -> Iterator[Running]:
    """A live server reading with the bundled models."""
    server, running = start(tmp_path, SSE_HEARTBEAT=1.0, SSE_LIFETIME=60.0)
    yield running
    server.stop()


@pytest.fixture
def tournament_server(tmp_path) -> Iterator[tuple[Any, Clock, str]]:
    """The companion on cheroot with the test's tournament clock: (app, clock, url)."""
    clock = Clock()
    server, running = start(
        tmp_path,
        threads=16,
        TOURNAMENT_CLOCK=clock,
        TOURNAMENT_POLL_S=0.5,
        # a table's match page holds a live stream: short-lived, so the server stops soon
        TOURNAMENT_TABLE_POLL_S=0.5,
        SSE_HEARTBEAT=0.5,
        SSE_LIFETIME=3.0,
    )
    yield running.app, clock, running.url
    server.stop()


def system_chromium(*args: str) -> Iterator[Any]:
    """Headless Chromium from the system, with `args`; the test skips without Playwright or Chromium."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium on this machine (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        browser = launch(p, path, *args)
        try:
            # Playwright's string waits evaluate with eval, which the pages' strict policy forbids
            yield without_csp(browser)
        finally:
            browser.close()


@pytest.fixture
def browser() -> Iterator[Any]:
    """Plain headless Chromium. Name a browser after the server in a test's arguments: fixtures end in
    the reverse order, so the pages (and their live streams) close before the server stops."""
    yield from system_chromium()


FAKE_CAMERA = ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"]


@pytest.fixture
def camera_browser(tmp_path_factory) -> Iterator[Any]:
    """Chromium with a fake camera that needs no permission prompt, filming a still table (its own
    fake device draws a moving pattern, and the page's live camera acts only on a still table)."""
    from vision.synth.y4m import Y4mWriter

    film = tmp_path_factory.mktemp("camera") / "still-table.y4m"
    still = np.full((240, 320, 3), 90, np.uint8)
    still[100:120, 140:180] = 250
    with Y4mWriter(film, 320, 240, 5.0) as writer:
        for _ in range(5):
            writer.write(still)
    yield from system_chromium(*FAKE_CAMERA, f"--use-file-for-fake-video-capture={film}")


@pytest.fixture
def changing_table_browser(tmp_path_factory) -> Iterator[Any]:
    """Chromium whose fake camera films a table that changes twice and then stays: bare for 3 s,
    one tile for 6 s, two tiles for 40 s (the page's live camera reads a still table that differs
    from the one it last read)."""
    from vision.synth.y4m import Y4mWriter

    film = tmp_path_factory.mktemp("camera") / "changing-table.y4m"
    table = np.full((480, 640, 3), 90, np.uint8)
    with Y4mWriter(film, 640, 480, 2.0) as writer:
        # the boxes `tests.support.camera.seen("6-6", "6-1")` gives: the double crosswise, then 6-1
        boxes = ((slice(170, 230), slice(200, 230)), (slice(185, 215), slice(230, 290)))
        for tiles, frames in ((0, 6), (1, 12), (2, 80)):
            state = table.copy()
            for rows, columns in boxes[:tiles]:
                state[rows, columns] = 250
            for _ in range(frames):
                writer.write(state)
    yield from system_chromium(*FAKE_CAMERA, f"--use-file-for-fake-video-capture={film}")


# -- a filmed game, for the live camera with the bundled models -----------------------------------------


class Film:
    """A synthetic game rendered as a Y4M film for Chromium's fake camera: the video (with its true
    record), the file, how many frames and at what rate."""

    #: the first seven plays of an all-fives hand (seed 12: the fourth scores 10) that the bundled models read right
    SEED, PLAYS = 12, 7
    #: frames a second: each still table lasts 6 frames (6 s), so the page, sending a frame a second as soon as
    #: the last is read, sees it twice or more on a machine that is not loaded (the live camera acts on two looks
    #: that agree); on a loaded one it may see a table once, or not at all, and then it asks.
    FPS = 1.0

    def __init__(self, video: Any, path: Any, frames: int) -> None:
        self.video, self.path, self.frames = video, path, frames

    @property
    def seconds(self) -> float:
        return self.frames / self.FPS


@pytest.fixture(scope="module")
def film(tmp_path_factory) -> Film:
    from vision.synth.video import game_video, write_video

    video = game_video(Film.SEED, 1280, 960, still_frames=6, max_plays=Film.PLAYS)
    out = tmp_path_factory.mktemp("film")
    written = write_video(video, out, fps=Film.FPS, y4m=True)
    return Film(video, out / "video.y4m", written["frames"])


@pytest.fixture
def film_browser(film) -> Iterator[Any]:
    """Chromium whose fake camera films `film` (looping when it ends)."""
    yield from system_chromium(*FAKE_CAMERA, f"--use-file-for-fake-video-capture={film.path}")


# -- the player pages' browser tests (tests/support/page.py) -------------------------------------------


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """The system Chromium at /usr/bin/chromium, one per test module; the test skips without it."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
    if not CHROMIUM.exists():
        pytest.skip("no Chromium at /usr/bin/chromium (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def open_page(chromium, request) -> Iterator[Any]:
    """`open_page(screen, **context options)`: a new phone (its own cookies); screenshots on failure."""
    opened: list[Any] = []

    def make(screen: dict[str, Any] = PHONE, **options: Any) -> Any:
        # Playwright's waits evaluate their predicates as strings, which the page's strict CSP
        # (no eval) forbids; the CSP itself is checked by tests/test_page_csp.py and test_webapp_security.py.
        page = chromium.new_context(**{"bypass_csp": True, **screen, **options}).new_page()
        page.set_default_timeout(WAIT)
        opened.append(page)
        return page

    yield make
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        SHOTS.mkdir(parents=True, exist_ok=True)
        name = re.sub(r"[^\w.-]+", "_", request.node.name)
        for n, page in enumerate(opened):
            try:
                page.screenshot(path=str(SHOTS / f"{name}-{n}.png"), full_page=True)
            except Exception:  # a page that crashed has nothing to show; the failure itself is reported
                pass
    for page in opened:
        page.context.close()


# -- the follower's seats --------------------------------------------------------------------------


@pytest.fixture
def seats_in_turn_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every play is the seat's whose turn it is (the likeliest seat the rules leave), where the
    follower would ask who played it: for tests of what it makes of the tiles, whose readings show
    no arm. Who laid a tile is tested without it (tests/test_follow_seats.py)."""
    from vision.follow.seats import SeatKeeper

    monkeypatch.setattr(SeatKeeper, "choose", lambda self, answer, arm, hand=None: answer.candidates[0])

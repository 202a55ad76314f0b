"""What the launcher hands its children as SIEGE_PUBLIC_URL unless the user set it: the base URL it prints
when bound to one host, nothing for a wildcard bind (events then carry the relative `source`)."""

from __future__ import annotations

import pytest

from launcher import front
from launcher.settings import Settings


@pytest.mark.parametrize(
    ("host", "public_url"),
    [
        ("127.0.0.1", "http://127.0.0.1:8123"),
        ("siege.lan", "http://siege.lan:8123"),
        ("0.0.0.0", ""),
        ("::", ""),
    ],
)
def test_the_public_url_is_the_base_url_only_for_a_specific_host(host: str, public_url: str) -> None:
    settings = Settings.from_env({"HOST": host, "PORT": "8123", "SIEGE_FRONT": "off"})

    assert settings.public_url == public_url


@pytest.mark.parametrize(
    ("host", "setting", "fronted"),
    [
        ("127.0.0.1", "auto", False),
        ("127.0.0.2", "", False),
        ("::1", "auto", False),
        ("0.0.0.0", "auto", True),
        ("siege.lan", "auto", True),
        ("0.0.0.0", "off", False),
        ("127.0.0.1", "on", True),
    ],
)
def test_an_exposed_bind_gets_the_front_unless_told_otherwise(host: str, setting: str, fronted: bool) -> None:
    if fronted:
        try:
            front.binary()
        except ValueError as missing:
            pytest.skip(str(missing))
    assert Settings.from_env({"HOST": host, "SIEGE_FRONT": setting}).front is fronted


def test_a_front_setting_that_means_nothing_stops_at_start() -> None:
    with pytest.raises(ValueError, match="SIEGE_FRONT"):
        Settings.from_env({"SIEGE_FRONT": "yes please"})

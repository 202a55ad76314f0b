"""What the launcher hands its children as SIEGE_PUBLIC_URL unless the user set it: the base URL it prints
when bound to one host, nothing for a wildcard bind (events then carry the relative `source`)."""

from __future__ import annotations

import pytest

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
    settings = Settings.from_env({"HOST": host, "PORT": "8123"})

    assert settings.public_url == public_url

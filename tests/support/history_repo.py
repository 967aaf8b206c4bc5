"""A git repository of cards with a known history, made in a test (no repository is committed)."""

from __future__ import annotations

import copy
import json
import os
import subprocess
from pathlib import Path
from typing import Any

BASE_TIME = 1_767_225_600  # 2026-01-01T00:00:00Z


class CardRepo:
    """A repository at ``root`` whose cards live in ``root/cards``; every commit has a fixed date."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.cards = root / "cards"
        self.cards.mkdir(parents=True, exist_ok=True)
        self.count = 0
        self.git("init", "-q", "-b", "main")

    def git(self, *argv: str) -> str:
        env = {
            **os.environ,
            "GIT_AUTHOR_NAME": "Card Author",
            "GIT_AUTHOR_EMAIL": "author@example.com",
            "GIT_COMMITTER_NAME": "Card Author",
            "GIT_COMMITTER_EMAIL": "author@example.com",
            "GIT_AUTHOR_DATE": f"{BASE_TIME + self.count * 86_400} +0200",
            "GIT_COMMITTER_DATE": f"{BASE_TIME + self.count * 86_400} +0200",
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GIT_CONFIG_NOSYSTEM": "1",
        }
        result = subprocess.run(
            ["git", *argv], cwd=self.root, env=env, capture_output=True, text=True, check=True
        )
        return result.stdout

    def write(self, name: str, card: dict[str, Any] | str) -> None:
        text = card if isinstance(card, str) else json.dumps(card, indent=2) + "\n"
        (self.cards / name).write_text(text, encoding="utf-8")

    def commit(self, message: str) -> str:
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)
        self.count += 1
        return self.git("rev-parse", "HEAD").strip()


def weather_card() -> dict[str, Any]:
    return {
        "name": "Weather Agent",
        "description": "Forecasts the weather.",
        "version": "1.0.0",
        "supportedInterfaces": [
            {"url": "https://weather.example.com/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
        ],
        "capabilities": {},
        "defaultInputModes": ["text/plain", "application/json"],
        "defaultOutputModes": ["text/plain"],
        "securitySchemes": {"apiKey": {"apiKeySecurityScheme": {"location": "header", "name": "X-Key"}}},
        "securityRequirements": [{"schemes": {"apiKey": {"list": []}}}],
        "skills": [
            {"id": "forecast", "name": "Forecast", "description": "Tomorrow's weather.", "tags": ["weather"]}
        ],
    }


def maps_card() -> dict[str, Any]:
    return {
        "name": "Maps Agent",
        "description": "Finds places.",
        "version": "2.0.0",
        "supportedInterfaces": [
            {"url": "https://maps.example.com/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
        ],
        "capabilities": {},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "find", "name": "Find", "description": "Finds a place.", "tags": ["maps"]}],
    }


def story_repo(root: Path) -> tuple[CardRepo, list[str]]:
    """The story of the issue: add two agents, add a skill, narrow a mode, rename a scheme, break the card
    and fix it, rename the file. Returns the repository and the commit ids, oldest first."""
    repo = CardRepo(root)
    weather, maps = weather_card(), maps_card()
    repo.write("weather.json", weather)
    repo.write("maps.json", maps)
    commits = [repo.commit("Add the weather and maps agents")]
    weather = copy.deepcopy(weather)
    weather["version"] = "1.1.0"
    weather["skills"].append(
        {"id": "alerts", "name": "Alerts", "description": "Storm warnings.", "tags": ["weather"]}
    )
    repo.write("weather.json", weather)
    commits.append(repo.commit("Weather: an alerts skill"))
    weather["defaultInputModes"] = ["text/plain"]
    repo.write("weather.json", weather)
    commits.append(repo.commit("Weather: text input only"))
    weather["securitySchemes"] = {"key": weather["securitySchemes"]["apiKey"]}
    weather["securityRequirements"] = [{"schemes": {"key": {"list": []}}}]
    repo.write("weather.json", weather)
    commits.append(repo.commit("Weather: rename the API key scheme"))
    repo.write("weather.json", '{"name": "Weather Agent", "skills": [')
    commits.append(repo.commit("Weather: half-saved edit"))
    weather["version"] = "2.0.0"
    repo.write("weather.json", weather)
    commits.append(repo.commit("Weather: repair the card"))
    repo.git("mv", "cards/weather.json", "cards/forecast.json")
    commits.append(repo.commit("Rename weather.json to forecast.json"))
    return repo, commits

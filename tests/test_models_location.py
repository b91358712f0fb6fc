"""The reader finds its models through the `spinner` package (so an installed wheel works) or the
`SPINNER_MODELS` setting, never through the source tree's layout."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from vision.read.models import models_dir


def test_the_bundled_models_are_package_data_of_spinner(monkeypatch):
    monkeypatch.delenv("SPINNER_MODELS", raising=False)
    found = models_dir()
    assert found == Path(str(resources.files("spinner"))) / "models"
    assert {p.name for p in found.glob("*.onnx")} >= {"detector.onnx", "halves.onnx", "refiner.onnx"}


def test_the_setting_names_another_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("SPINNER_MODELS", str(tmp_path))
    assert models_dir() == tmp_path


def test_pyproject_ships_the_models_with_the_package():
    import tomllib

    project = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())
    assert "models/*.onnx" in project["tool"]["setuptools"]["package-data"]["spinner"]

"""How the half classifier's training crops are varied: each look does what it says, and only it."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from vision.train.halves import PLAIN_LOOKS, Looks, jitter  # noqa: E402

#: every look off, and no light or colour cast: the crops come back as they went in
NONE = Looks(light=0.0, cast=0.0, inverted=0.0, channels_swapped=0.0, grey=0.0, blurred=0.0, noisy=0.0, faded=0.0)


def _batch() -> torch.Tensor:
    torch.manual_seed(0)
    return torch.rand(64, 3, 32, 32)


def test_with_every_look_off_the_crops_are_unchanged():
    batch = _batch()
    assert torch.equal(jitter(batch.clone(), NONE), batch)


def test_an_inverted_crop_swaps_pips_and_body():
    batch = _batch()
    out = jitter(batch.clone(), Looks(**{**_off(), "inverted": 1.0}))
    assert torch.allclose(out, 1 - batch)


def test_swapped_channels_keep_each_pixel_s_values():
    batch = _batch()
    out = jitter(batch.clone(), Looks(**{**_off(), "channels_swapped": 1.0}))
    assert torch.equal(out.sort(dim=1).values, batch.sort(dim=1).values)


def test_a_grey_crop_has_three_equal_channels_of_the_mean():
    batch = _batch()
    out = jitter(batch.clone(), Looks(**{**_off(), "grey": 1.0}))
    assert torch.allclose(out[:, 0], out[:, 1]) and torch.allclose(out[:, 1], out[:, 2])
    assert torch.allclose(out[:, 0], batch.mean(dim=1))


def test_blur_and_fading_lower_the_contrast_and_keep_the_mean():
    batch = _batch()
    for look in ("blurred", "faded"):
        out = jitter(batch.clone(), Looks(**{**_off(), look: 1.0}))
        assert out.std() < batch.std(), look
        assert abs(float(out.mean() - batch.mean())) < 0.02, look


def test_noise_stays_in_range_and_changes_the_crops():
    batch = _batch()
    out = jitter(batch.clone(), Looks(**{**_off(), "noisy": 1.0, "most_noise": 0.2}))
    assert out.min() >= 0 and out.max() <= 1
    assert not torch.equal(out, batch)


def _off() -> dict[str, float]:
    return {name: getattr(NONE, name) for name in Looks.__dataclass_fields__}


def test_plain_looks_draw_as_the_light_and_cast_alone_did():
    # the recipe before the looks: the same random draws, so `--no-looks` trains as it did
    batch = _batch()
    torch.manual_seed(5)
    out = jitter(batch.clone(), PLAIN_LOOKS)
    after = torch.rand(1)
    torch.manual_seed(5)
    n = len(batch)
    light = 0.75 + 0.5 * torch.rand(n, 1, 1, 1)
    cast = 0.1 * (torch.rand(n, 3, 1, 1) - 0.5)
    assert torch.allclose(out, (batch * light + cast).clamp(0, 1))
    assert torch.equal(after, torch.rand(1))


def test_a_wider_classifier_reads_the_same_crops():
    from vision.train.halves import build_model

    model = build_model(width=24).eval()
    assert model(torch.zeros(2, 3, 32, 32)).shape == (2, 7)

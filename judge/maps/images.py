"""Images as base64 data URLs, with a recorded resolution policy.

Policy ``native`` sends the file's own bytes (PNG, JPEG, WebP and GIF as they are; any
other format is re-encoded as PNG, pixels unchanged). ``max_side=N`` downscales an image
whose longer side exceeds N pixels to exactly N on that side (Lanczos, aspect kept) and
re-encodes it (PNG stays PNG, everything else becomes JPEG at quality 95). OmniMapBench
keeps maps at native resolution, up to 11,811 x 9,442 pixels; what a model is sent
decides what it can read, so each row records the policy, the original size and the
size sent.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from judge.errors import InputError

_PASS_THROUGH = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp", "GIF": "image/gif"}


def policy_label(max_side: int | None) -> str:
    """Name a resolution policy for result rows: ``native`` or ``max_side=1024``."""
    return "native" if max_side is None else f"max_side={max_side}"


class EncodedImage(BaseModel):
    """An image ready to send, and how it was prepared."""

    model_config = ConfigDict(frozen=True)

    path: str
    #: SHA-256 of the original file's bytes: the image's identity across question sets.
    sha256: str
    policy: str
    mime: str
    size: tuple[int, int]
    sent_size: tuple[int, int]
    data_url: str


def encode_image(path: str | os.PathLike[str], *, max_side: int | None = None) -> EncodedImage:
    """Read an image and return it as a data URL under the given policy.

    Raises ``InputError`` naming the file when it cannot be read as an image.
    """
    p = Path(path)
    try:
        stat = p.stat()
    except OSError as e:
        raise InputError(f"cannot read image: {e.strerror}", path=str(p)) from e
    # Keyed by modification time too, so an edited image is never served stale.
    return _encode(str(p.resolve()), stat.st_mtime_ns, stat.st_size, max_side)


@lru_cache(maxsize=256)
def _encode(path: str, _mtime_ns: int, _size: int, max_side: int | None) -> EncodedImage:
    from PIL import Image, UnidentifiedImageError  # lazy: only map runs pay for Pillow

    if max_side is not None and max_side < 1:
        raise InputError(f"max side must be a positive number of pixels, got {max_side}")
    raw = Path(path).read_bytes()
    try:
        im = Image.open(io.BytesIO(raw))
        im.load()
    except (UnidentifiedImageError, OSError) as e:
        raise InputError(f"not a readable image ({e})", path=path) from e
    size = im.size
    fmt = (im.format or "").upper()
    if max_side is not None and max(size) > max_side:
        scale = max_side / max(size)
        sent_size = (max(1, round(size[0] * scale)), max(1, round(size[1] * scale)))
        small = im.resize(sent_size, Image.Resampling.LANCZOS)
        data, mime = _reencode(small, png=fmt == "PNG")
    elif fmt in _PASS_THROUGH:
        data, mime, sent_size = raw, _PASS_THROUGH[fmt], size
    else:
        data, mime = _reencode(im, png=True)
        sent_size = size
    url = f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
    return EncodedImage(path=path, sha256=hashlib.sha256(raw).hexdigest(), policy=policy_label(max_side),
                        mime=mime, size=size, sent_size=sent_size, data_url=url)


def _reencode(im, *, png: bool) -> tuple[bytes, str]:  # noqa: ANN001 - a PIL image
    buf = io.BytesIO()
    if png:
        im.save(buf, format="PNG", optimize=True)
        return buf.getvalue(), "image/png"
    im.convert("RGB").save(buf, format="JPEG", quality=95)
    return buf.getvalue(), "image/jpeg"


def image_message(text: str, image: EncodedImage) -> list[dict[str, object]]:
    """Return one user message in OpenAI chat format: the image, then the text."""
    return [{"role": "user", "content": [
        {"type": "image_url", "image_url": {"url": image.data_url}},
        {"type": "text", "text": text},
    ]}]


def text_message(text: str) -> list[dict[str, object]]:
    """Return one user message with text only (no image part at all)."""
    return [{"role": "user", "content": text}]

"""The phone camera: pose of the page, background, light, shadows, blur, noise.

The page lies in a plane seen by a pinhole camera: tilted by up to
``tilt_deg``, rolled by any angle, moved so that the map (not necessarily the
page) stays in the frame. The map from page millimetres to photo pixels is a
homography ``H_mm`` (photo pixels with the origin at the top-left pixel corner,
as the state document's polygons are).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from aggression_vision.synth.paper import smooth_field
from aggression_vision.synth.params import SynthParams


@dataclass(frozen=True)
class CameraPose:
    """Photo size (width, height) in pixels and the page-mm -> photo-pixel homography."""

    size: tuple[int, int]
    H_mm: NDArray[np.float64]
    tilt_deg: float
    roll_deg: float

    def project(self, pts_mm: NDArray[np.float64]) -> NDArray[np.float64]:
        """Page millimetres (N, 2) -> photo pixels (N, 2), corner origin."""
        p = np.asarray(pts_mm, dtype=float).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(p, self.H_mm).reshape(-1, 2)

    def px_per_mm(self, at_mm: tuple[float, float]) -> float:
        """Local scale of the photo at a page point (pixels per millimetre)."""
        x, y = at_mm
        q = self.project(np.array([[x, y], [x + 1, y], [x, y + 1]]))
        u, v = q[1] - q[0], q[2] - q[0]
        return float(math.sqrt(abs(u[0] * v[1] - u[1] * v[0])))


@dataclass(frozen=True)
class Distortion:
    """Lens distortion and a slightly bent page: a smooth displacement of the photo.

    The photo is resampled as ``out(x) = flat(x + d(x))`` (OpenCV ``remap``),
    where ``d`` is given on a coarse grid spanning the photo and interpolated
    bilinearly exactly as ``cv2.resize`` does. :meth:`forward` moves points
    of the flat photo to where they land in the final one.
    """

    size: tuple[int, int]
    grid: NDArray[np.float32]  # (gh, gw, 2) displacement in pixels

    def _sample(self, centres: NDArray[np.float64]) -> NDArray[np.float64]:
        """``d`` at pixel-centre coordinates (N, 2)."""
        w, h = self.size
        gh, gw = self.grid.shape[:2]
        n = len(centres)
        width = 1024  # remap maps must stay below 32767 pixels a side
        pad = -n % width
        gx = np.pad((centres[:, 0] + 0.5) * gw / w - 0.5, (0, pad)).astype(np.float32)
        gy = np.pad((centres[:, 1] + 0.5) * gh / h - 0.5, (0, pad)).astype(np.float32)
        out = cv2.remap(
            self.grid,
            gx.reshape(-1, width),
            gy.reshape(-1, width),
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
        return np.asarray(out, dtype=np.float64).reshape(-1, 2)[:n]

    def forward(self, pts: NDArray[np.float64]) -> NDArray[np.float64]:
        """Flat-photo points (N, 2; corner origin) -> final-photo points."""
        flat = np.asarray(pts, dtype=float) - 0.5
        x = flat.copy()
        for _ in range(8):  # fixed point of x + d(x) = flat; d is smooth and small
            x = flat - self._sample(x)
        return x + 0.5

    def apply(self, image: NDArray[np.uint8]) -> NDArray[np.uint8]:
        """Resample a photo of ``size`` through the displacement."""
        w, h = self.size
        # The sampling map (position + displacement) at a quarter of the resolution,
        # then enlarged: bilinear enlargement reproduces the position part exactly
        # and the smooth displacement to far below a pixel, at a fraction of the cost.
        wq, hq = -(-w // 4), -(-h // 4)
        quarter = cv2.resize(self.grid, (wq, hq), interpolation=cv2.INTER_LINEAR)
        quarter[..., 0] += ((np.arange(wq) + 0.5) * w / wq - 0.5).astype(np.float32)[None, :]
        quarter[..., 1] += ((np.arange(hq) + 0.5) * h / hq - 0.5).astype(np.float32)[:, None]
        full = cv2.resize(quarter, (w, h), interpolation=cv2.INTER_LINEAR)
        return cv2.remap(image, full, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def random_distortion(
    rng: np.random.Generator, params: SynthParams, size: tuple[int, int]
) -> Distortion:
    """Radial lens distortion plus a gentle random bend of the sheet."""
    w, h = size
    gw, gh = 33, max(5, int(round(33 * h / w)))
    xs = (np.arange(gw) + 0.5) * w / gw - 0.5
    ys = (np.arange(gh) + 0.5) * h / gh - 0.5
    gx, gy = np.meshgrid(xs, ys)
    cx, cy = (w - 1) / 2, (h - 1) / 2
    half_diag = math.hypot(w, h) / 2
    rx, ry = (gx - cx) / half_diag, (gy - cy) / half_diag
    k = float(rng.uniform(*params.lens_distortion))  # displacement at the corner / half diagonal
    r2 = rx**2 + ry**2
    grid = np.stack([k * rx * r2, k * ry * r2], axis=-1) * half_diag
    bend = float(rng.uniform(*params.page_bend)) * max(w, h)
    if bend > 0:
        for axis in (0, 1):
            grid[..., axis] += smooth_field(rng, (gh, gw), 2, bend)
    return Distortion(size=size, grid=grid.astype(np.float32))


def _rotation(axis: NDArray[np.float64], angle: float) -> NDArray[np.float64]:
    axis = axis / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * (k @ k)


def choose_pose(
    rng: np.random.Generator,
    params: SynthParams,
    *,
    page_mm: tuple[float, float],
    keep_mm: NDArray[np.float64],
) -> CameraPose:
    """A random camera pose that keeps the points ``keep_mm`` (the map) in view.

    Parameters
    ----------
    page_mm : (width, height)
    keep_mm : ndarray, shape (N, 2)
        Page points that must appear in the photo (with a small margin).
    """
    mp = float(rng.uniform(*params.megapixels)) * 1e6
    aspect = [4 / 3, 16 / 9, 3 / 2, 1.0][int(rng.choice(4, p=[0.7, 0.15, 0.1, 0.05]))]
    w = int(round(math.sqrt(mp * aspect)))
    h = int(round(w / aspect))
    roll_deg = float(rng.uniform(*params.roll_deg))
    if rng.random() < params.roll_near_axis_prob:
        # People mostly hold the phone square to the sheet, give or take.
        lo, hi = params.roll_deg
        snapped = 90.0 * round(roll_deg / 90.0) + float(rng.normal(0.0, 6.0))
        roll_deg = float(np.clip(snapped, lo, hi))
    # Mostly portrait photos of portrait sheets (and landscape of landscape).
    page_upright = (page_mm[1] >= page_mm[0]) == (abs(math.sin(math.radians(roll_deg))) < 0.7071)
    if page_upright != (rng.random() < 0.15):
        w, h = h, w
    f = max(w, h) * float(rng.uniform(0.75, 1.05))
    centre = keep_mm.mean(axis=0)
    tilt = math.radians(float(rng.uniform(*params.tilt_deg)))
    phi = rng.uniform(0, 2 * math.pi)
    roll = math.radians(roll_deg)
    r = _rotation(np.array([0.0, 0.0, 1.0]), roll) @ _rotation(
        np.array([math.cos(phi), math.sin(phi), 0.0]), tilt
    )
    fill = float(rng.uniform(*params.page_fill))
    corners = np.array([[0, 0], [page_mm[0], 0], [page_mm[0], page_mm[1]], [0, page_mm[1]]])
    map_mm = keep_mm
    whole_page = rng.random() >= params.page_cut_prob

    def project(pts: NDArray[np.float64], z: float, t: NDArray[np.float64]) -> NDArray[np.float64]:
        p3 = np.concatenate([pts - centre, np.zeros((len(pts), 1))], axis=1) @ r.T
        p3 = p3 + np.array([t[0], t[1], z])
        return np.stack([f * p3[:, 0] / p3[:, 2] + w / 2, f * p3[:, 1] / p3[:, 2] + h / 2], axis=1)

    # The map is what the photo is of: never smaller than map_min_fill of the
    # photo's shorter side. Zooming in to get there may cut the sheet off.
    z = f * max(page_mm) / (fill * max(w, h))
    q = project(map_mm, z, np.zeros(2))
    extent = float((q.max(axis=0) - q.min(axis=0)).max())
    want = float(rng.uniform(*params.map_min_fill)) * min(w, h)
    if extent < want:
        fill *= want / extent
        whole_page = False
    if whole_page:
        keep_mm = np.concatenate([keep_mm, corners])  # the whole sheet in view

    margin = 0.02 * min(w, h)

    def inside(q: NDArray[np.float64]) -> bool:
        lo, hi = q.min(axis=0), q.max(axis=0)
        return bool(
            lo[0] >= margin and lo[1] >= margin and hi[0] <= w - margin and hi[1] <= h - margin
        )

    t = np.zeros(2)
    for _ in range(80):
        z = f * max(page_mm) / (fill * max(w, h))
        q = project(keep_mm, z, np.zeros(2))
        lo, hi = q.min(axis=0), q.max(axis=0)
        if np.any(hi - lo > np.array([w, h]) - 2 * margin):
            fill *= 0.97  # too big for the frame at this distance
            continue
        # Centre what must be seen, then shift it at random within the slack.
        slack_lo = np.array([margin, margin]) - lo
        slack_hi = np.array([w, h]) - margin - hi
        shift = rng.uniform(slack_lo, slack_hi)
        for _ in range(6):  # perspective makes the shift a little uneven: back off if needed
            t = shift * z / f
            if inside(project(keep_mm, z, t)):
                break
            shift = shift * 0.5 + (slack_lo + slack_hi) / 4
        else:
            fill *= 0.97
            continue
        break
    dst = project(corners.astype(float), z, t)
    hom = cv2.getPerspectiveTransform(corners.astype(np.float32), dst.astype(np.float32))
    return CameraPose(
        size=(w, h),
        H_mm=hom.astype(np.float64),
        tilt_deg=math.degrees(tilt),
        roll_deg=math.degrees(roll),
    )


def _background(rng: np.random.Generator, shape: tuple[int, int]) -> NDArray[np.uint8]:
    """A table or desk (BGR, 8 bit): wood, grey, dark, white or coloured, some texture."""
    h, w = shape
    kinds = [
        (0.55, 0.38, 0.22),  # wood
        (0.45, 0.45, 0.47),  # grey desk
        (0.12, 0.12, 0.13),  # dark
        (0.82, 0.82, 0.8),  # white table
        (0.3, 0.4, 0.35),  # cutting mat
        (0.7, 0.62, 0.5),  # light wood
        (0.25, 0.2, 0.18),  # dark wood
    ]
    base = np.array(kinds[int(rng.integers(len(kinds)))]) * rng.uniform(0.92, 1.08, 3)
    small_h, small_w = max(4, h // 16), max(4, w // 16)
    field = smooth_field(rng, (small_h, small_w), 4, 0.08)
    if rng.random() < 0.5:  # grain of a wooden table
        tex = rng.normal(0, 1, (small_h, 5)).astype(np.float32)
        streaks = cv2.resize(tex, (small_w, small_h), interpolation=cv2.INTER_CUBIC)
        if rng.random() < 0.5:
            streaks = cv2.resize(
                cv2.resize(
                    tex.T.copy(), (small_h, small_w), interpolation=cv2.INTER_CUBIC
                ).T.copy(),
                (small_w, small_h),
            )
        field = field + streaks * np.float32(rng.uniform(0.01, 0.04))
    bg = np.clip(base[None, None, ::-1] * (1 + field[..., None]) * 255.0, 0, 255).astype(np.uint8)
    return cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)


def _light(
    rng: np.random.Generator, params: SynthParams, size: tuple[int, int]
) -> NDArray[np.float32]:
    """Low-resolution light field (rows, cols, 3; BGR): unevenness, vignette, shadow, colour."""
    w, h = size
    sw, sh = 96, max(8, int(round(96 * h / w)))
    amp = float(rng.uniform(*params.light_unevenness))
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    gx, gy = rng.normal(0, 1, 2)
    grad = (gx * (xx / sw - 0.5) + gy * (yy / sh - 0.5)) * amp
    field = 1 + grad + smooth_field(rng, (sh, sw), 3, amp * 0.6)
    r2 = ((xx / sw - 0.5) ** 2 + (yy / sh - 0.5) ** 2) / 0.5
    field *= 1 - float(rng.uniform(0, 0.35)) * r2
    if rng.random() < params.shadow_prob:
        mask = np.zeros((sh, sw), np.float32)
        # A hand or a phone coming in from one side: a blob plus an arm or a bar.
        side = int(rng.integers(4))
        cx = [rng.uniform(0, sw), sw, rng.uniform(0, sw), 0][side]
        cy = [0, rng.uniform(0, sh), sh, rng.uniform(0, sh)][side]
        rx, ry = rng.uniform(0.15, 0.4) * sw, rng.uniform(0.15, 0.4) * sh
        ang = float(rng.uniform(0, 180))
        cv2.ellipse(mask, (int(cx), int(cy)), (int(rx), int(ry)), ang, 0, 360, 1.0, -1)
        if rng.random() < 0.5:
            end = (int(cx + rng.normal(0, 0.5) * sw), int(cy + rng.normal(0, 0.5) * sh))
            cv2.line(mask, (int(cx), int(cy)), end, 1.0, max(1, int(rng.uniform(0.05, 0.15) * sw)))
        mask = cv2.GaussianBlur(mask, (0, 0), float(rng.uniform(1.0, 4.0)))
        field *= 1 - float(rng.uniform(*params.shadow_strength)) * mask
    exposure = float(rng.uniform(*params.exposure))
    warm = float(rng.normal(0, 0.03))  # white balance: warm (yellow) or cool (blue) light
    tint = np.array([1.0 - warm, 1.0, 1.0 + warm]) + rng.normal(0, 0.01, 3)  # B, G, R
    return (field[..., None] * exposure * tint[None, None, :]).astype(np.float32)


def photograph(
    page_bgr: NDArray[np.uint8],
    page_alpha: NDArray[np.float32],
    ppm: float,
    pose: CameraPose,
    rng: np.random.Generator,
    params: SynthParams,
    distortion: Distortion | None = None,
) -> tuple[NDArray[np.uint8], int]:
    """Take the photo of the page.

    Parameters
    ----------
    page_bgr : ndarray of uint8, shape (rows, cols, 3)
        The page with its ink, BGR, at ``ppm`` pixels per millimetre.
    page_alpha : ndarray of float32, shape (rows, cols)
        1 on paper, 0 in holes.
    pose : CameraPose
    distortion : Distortion, optional
        Lens distortion and page bend, applied after the perspective.

    Returns
    -------
    photo : ndarray of uint8, shape (height, width, 3)
        BGR, before JPEG compression.
    jpeg_quality : int
        The quality to save it with.
    """
    w, h = pose.size
    s = np.diag([1.0 / ppm, 1.0 / ppm, 1.0])
    t_minus = np.array([[1, 0, -0.5], [0, 1, -0.5], [0, 0, 1.0]])
    t_plus = np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1.0]])
    hc = t_minus @ pose.H_mm @ s @ t_plus  # OpenCV works with pixel centres at integers
    bg = _background(rng, (h, w))
    holes = page_alpha < 0.5
    if holes.any():  # punched holes show the table through the sheet
        page_bgr = page_bgr.copy()
        page_bgr[holes] = bg.reshape(-1, 3).mean(axis=0).astype(np.uint8)
    # The page is warped straight onto the table (outside the sheet, bg stays).
    img = cv2.warpPerspective(
        page_bgr, hc, (w, h), dst=bg, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT
    )
    if distortion is not None:
        img = distortion.apply(img)
    light = _light(rng, params, (w, h))
    light_u8 = np.clip(light * 128.0, 0, 255).astype(np.uint8)
    light_full = cv2.resize(light_u8, (w, h), interpolation=cv2.INTER_LINEAR)
    img = cv2.multiply(img, light_full, scale=1.0 / 128.0)
    centre = (page_bgr.shape[1] / ppm / 2, page_bgr.shape[0] / ppm / 2)
    sigma = float(rng.uniform(*params.blur_mm)) * pose.px_per_mm(centre)
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    if rng.random() < params.motion_blur_prob:
        n = int(rng.integers(3, 8))
        k = np.zeros((n, n), np.float32)
        ang = rng.uniform(0, math.pi)
        c = (n - 1) / 2
        p0 = (int(round(c - c * math.cos(ang))), int(round(c - c * math.sin(ang))))
        p1 = (int(round(c + c * math.cos(ang))), int(round(c + c * math.sin(ang))))
        cv2.line(k, p0, p1, 1.0, 1)
        img = cv2.filter2D(img, -1, k / k.sum())
    if rng.random() < params.sharpen_prob:  # phones sharpen: halos along the strokes
        amount = float(rng.uniform(0.3, 1.0))
        soft = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(1.0, 2.5)))
        img = cv2.addWeighted(img, 1.0 + amount, soft, -amount, 0.0)
    sigma_n = float(rng.uniform(*params.noise))
    tile = rng.normal(0, sigma_n, (256, 256, 3))
    pos = np.clip(tile, 0, 255).astype(np.uint8)
    neg = np.clip(-tile, 0, 255).astype(np.uint8)
    reps = (h // 256 + 2, w // 256 + 2, 1)
    oy, ox = (int(v) for v in rng.integers(256, size=2))
    img = cv2.add(img, np.ascontiguousarray(np.tile(pos, reps)[oy : oy + h, ox : ox + w]))
    img = cv2.subtract(img, np.ascontiguousarray(np.tile(neg, reps)[oy : oy + h, ox : ox + w]))
    quality = int(rng.integers(params.jpeg_quality[0], params.jpeg_quality[1] + 1))
    return img, quality

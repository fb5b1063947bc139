"""The handwriting recogniser: a small convolutional network run through OpenCV's dnn module.

One network reads a whole cluster of writing (a number, a letter, or both) without cutting
it into characters first: it outputs, for each of ``T`` columns of its input, log
probabilities over ``blank + ALPHABET`` (trained with CTC), and two more outputs, the
probabilities that the cluster is underlined and that it is crossed out. Reading a cluster
as a whole is what lets touching digits and struck-through numbers be read: a stroke
through a number joins all its digits into one blob, which any cut-then-classify reader
has to undo first.

A reading is chosen among a closed vocabulary (numbers 1-100, letters A-Z, a letter next
to a number, nothing) by scoring every candidate string with the CTC forward algorithm,
so impossible strings ("0", "107", "7A3") can never come out.

The ONNX file is trained by ``scripts/train_digits.py`` (torch only there); this module
needs only numpy and OpenCV.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from aggression_vision.errors import AggressionVisionError

#: Input size of the network, (height, width) in pixels.
INPUT_H = 32
INPUT_W = 128
#: Characters the network knows; CTC class k + 1 is ``ALPHABET[k]``, class 0 is the blank.
ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
DIGITS = "0123456789"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: Height of the writing inside the input, in pixels; the rest is margin.
INK_HEIGHT = 26
MAX_ARMIES = 100

MODEL_PATH = Path(__file__).resolve().parents[2] / "models" / "marks_ctc.onnx"


class ModelNotFoundError(AggressionVisionError):
    """The ONNX model file of the reader is missing or cannot be loaded."""


def to_input(ink: NDArray[np.floating]) -> NDArray[np.float32]:
    """Normalise an ink image into the network's input frame.

    Parameters
    ----------
    ink : (H, W) float array
        Ink coverage, 0 = paper, 1 = full ink, of one cluster of writing with its
        surroundings already blanked out. Any size.

    Returns
    -------
    (INPUT_H, INPUT_W) float32
        The ink's bounding box scaled so that its height is ``INK_HEIGHT`` (or its width
        fits the frame when it is very wide), centred. All zeros when there is no ink.
    """
    out = np.zeros((INPUT_H, INPUT_W), np.float32)
    ink = np.asarray(ink, np.float32)
    ys, xs = np.nonzero(ink > 0.15)
    if ys.size == 0:
        return out
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    crop = ink[y0:y1, x0:x1]
    h, w = crop.shape
    scale = min(INK_HEIGHT / h, (INPUT_W - 4) / w)
    nh, nw = max(1, round(h * scale)), max(1, round(w * scale))
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    small = cv2.resize(crop, (nw, nh), interpolation=interp)
    oy, ox = (INPUT_H - nh) // 2, (INPUT_W - nw) // 2
    out[oy : oy + nh, ox : ox + nw] = np.clip(small, 0.0, 1.0)
    return out


@dataclass(frozen=True)
class NetOutput:
    """Raw outputs of the network for a batch.

    Attributes
    ----------
    logprobs : (N, T, C) float32
        Per-column log probabilities over blank + ALPHABET.
    underlined : (N,) float32
        Probability that the cluster is underlined.
    crossed : (N,) float32
        Probability that the cluster is crossed out.
    """

    logprobs: NDArray[np.float32]
    underlined: NDArray[np.float32]
    crossed: NDArray[np.float32]


class MarkNet:
    """The recogniser loaded from its ONNX file, run with ``cv2.dnn``.

    Parameters
    ----------
    path : path-like, optional
        ONNX file; defaults to ``models/marks_ctc.onnx`` of the repository.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else MODEL_PATH
        if not self.path.is_file():
            raise ModelNotFoundError(
                f"{self.path}: reader model not found (train it with scripts/train_digits.py)"
            )
        try:
            self._net = cv2.dnn.readNetFromONNX(str(self.path))
        except cv2.error as exc:
            raise ModelNotFoundError(f"{self.path}: cannot load the ONNX model: {exc}") from exc
        self._outs = list(self._net.getUnconnectedOutLayersNames())

    def run(self, inputs: NDArray[np.float32]) -> NetOutput:
        """Run the network on a batch of inputs made by :func:`to_input`.

        Parameters
        ----------
        inputs : (N, INPUT_H, INPUT_W) float32

        Returns
        -------
        NetOutput
        """
        n = inputs.shape[0]
        if n == 0:
            empty = np.zeros((0,), np.float32)
            return NetOutput(
                np.zeros((0, INPUT_W // 4, len(ALPHABET) + 1), np.float32), empty, empty
            )
        blob = np.ascontiguousarray(inputs.reshape(n, 1, INPUT_H, INPUT_W), np.float32)
        self._net.setInput(blob, "x")
        outs = self._net.forward(self._outs)
        by_name = dict(zip(self._outs, outs, strict=True))
        logits = np.asarray(by_name["logits"], np.float32).reshape(n, -1, len(ALPHABET) + 1)
        marks = np.asarray(by_name["marks"], np.float32).reshape(n, 2)
        logprobs = logits - _logsumexp(logits, axis=2)[..., None]
        probs = 1.0 / (1.0 + np.exp(-marks))
        p32 = np.asarray(probs, np.float32)
        return NetOutput(logprobs.astype(np.float32), p32[:, 0], p32[:, 1])


@lru_cache(maxsize=4)
def load_net(path: str | None = None) -> MarkNet:
    """Load (once per process) the recogniser; see :class:`MarkNet`."""
    return MarkNet(path)


def file_sha256(path: str | Path) -> str:
    """Hex SHA-256 of a file (the model card records the model's)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _logsumexp(a: NDArray[np.float32], axis: int) -> NDArray[np.float32]:
    m = np.max(a, axis=axis, keepdims=True)
    out = np.squeeze(m, axis=axis) + np.log(np.sum(np.exp(a - m), axis=axis))
    return np.asarray(out, np.float32)


def encode(text: str) -> list[int]:
    """CTC class indices of ``text`` (1-based into ALPHABET; blanks are 0)."""
    return [ALPHABET.index(c) + 1 for c in text]


@lru_cache(maxsize=1)
def vocabulary() -> tuple[str, ...]:
    """Every string a cluster of writing may be read as.

    ``""`` (no writing), the numbers ``"1"``..``"100"``, the letters ``"A"``..``"Z"``, and a
    letter written just before a number (``"A12"``) for a country name that sits close to
    its number.
    """
    numbers = [str(k) for k in range(1, MAX_ARMIES + 1)]
    letters = list(LETTERS)
    pairs = [f"{a}{n}" for a in LETTERS for n in numbers]
    return tuple(["", *numbers, *letters, *pairs])


@dataclass(frozen=True)
class _Trie:
    """The candidates' prefix tree: node 0 is the empty prefix, node j > 0 one character
    (``code[j]``) after its ``parent[j]``; ``end[k]`` is the node of candidate k."""

    parent: NDArray[np.int64]
    code: NDArray[np.int64]
    repeat: NDArray[np.bool_]  # the node repeats its parent's character (no blank-free step)
    end: NDArray[np.int64]


@lru_cache(maxsize=64)
def _trie(candidates: tuple[str, ...]) -> _Trie:
    index: dict[str, int] = {"": 0}
    parent, code, repeat = [0], [0], [False]
    for cand in candidates:
        for i in range(1, len(cand) + 1):
            prefix = cand[:i]
            if prefix not in index:
                index[prefix] = len(parent)
                parent.append(index[cand[: i - 1]])
                code.append(ALPHABET.index(cand[i - 1]) + 1)
                repeat.append(i > 1 and cand[i - 1] == cand[i - 2])
    return _Trie(
        np.array(parent, np.int64),
        np.array(code, np.int64),
        np.array(repeat, bool),
        np.array([index[c] for c in candidates], np.int64),
    )


def ctc_log_likelihood(
    logprobs: NDArray[np.floating],
    candidates: tuple[str, ...],
    *,
    dtype: type[np.floating] = np.float64,
) -> NDArray[np.float64]:
    """Log-likelihood of each candidate string for each item of a batch (CTC forward).

    The forward pass runs once over the candidates' prefix tree (numbers 1-100 and the
    letters share their prefixes: 127 nodes instead of 126 separate label sequences),
    in the linear domain rescaled at every step (the classic scaled alpha recursion):
    exact up to rounding. Two states per tree node: "prefix read, last column its last
    character" and "prefix read, last column blank".

    Parameters
    ----------
    logprobs : (N, T, C) float array
        Per-column log probabilities (class 0 = blank).
    candidates : tuple of str
        Strings over ALPHABET.
    dtype : numpy float type
        Precision of the recursion. float32 is about twice as fast but likelihoods below
        about exp(-87) times the best prefix's come out as ``-inf``.

    Returns
    -------
    (N, K) float64
        ``log p(candidate | input)`` under the CTC model; ``-inf`` when impossible.
    """
    lp = np.asarray(logprobs)
    n, t_len, n_cls = lp.shape
    trie = _trie(tuple(candidates))
    # Class n_cls is a column of zeros: the root node emits nothing.
    probs = np.zeros((n, t_len, n_cls + 1), dtype)
    probs[:, :, :n_cls] = np.exp(lp)
    code = trie.code.copy()
    code[0] = n_cls
    emit = probs[:, :, code]  # (n, T, nodes)
    blank_p = probs[:, :, 0]
    par = trie.parent
    # The label state of a node is entered from its parent's blank state, and from its
    # parent's label state unless the two characters are equal (CTC needs a blank then).
    step_ok = (~trie.repeat).astype(dtype)
    lab = np.where(par == 0, emit[:, 0], 0.0).astype(dtype)
    lab[:, 0] = 0.0
    blank = np.zeros_like(lab)
    blank[:, 0] = blank_p[:, 0]
    log_scale = np.zeros(n)
    for t in range(1, t_len):
        new_lab = (lab + blank[:, par] + lab[:, par] * step_ok) * emit[:, t]
        blank = (blank + lab) * blank_p[:, t, None]
        lab = new_lab
        c = np.maximum(lab.max(axis=1), blank.max(axis=1))
        c = np.where(c > 0, c, 1.0).astype(dtype)
        lab /= c[:, None]
        blank /= c[:, None]
        log_scale += np.log(c.astype(np.float64))
    last = (lab[:, trie.end] + blank[:, trie.end]).astype(np.float64)
    with np.errstate(divide="ignore"):
        return np.log(last) + log_scale[:, None]


def greedy_decode(logprobs: NDArray[np.float32]) -> list[str]:
    """Best-path CTC decoding (for diagnostics; the reader uses the vocabulary)."""
    best = np.argmax(logprobs, axis=2)
    texts = []
    for row in best:
        chars = []
        prev = 0
        for c in row:
            if c != prev and c != 0:
                chars.append(ALPHABET[c - 1])
            prev = c
        texts.append("".join(chars))
    return texts

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
import weakref
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

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
#: The second network (same layers and outputs, fine-tuned on clusters cut from synthetic
#: photos): asked for its word on the underline and cross-out of doubtful number readings
#: (see ``MarksSettings.second_crossed``); its text is not used.
SECOND_MODEL_PATH = MODEL_PATH.with_name("marks_second.onnx")
#: The pair network (same layers and outputs, fine-tuned on two-digit numbers whose digits
#: overlap or touch): asked for the text of number clusters read as one unsure digit (see
#: ``MarksSettings.pairs_aspect``).
PAIRS_MODEL_PATH = MODEL_PATH.with_name("marks_pairs.onnx")
#: The crossed-out reader: the same layers, fine-tuned on crossed-out numbers; its text is
#: asked only for whole clusters read as crossed out (``marks.crossed_text``).
CROSSED_MODEL_PATH = MODEL_PATH.with_name("marks_crossed.onnx")


class ModelNotFoundError(AggressionVisionError):
    """The ONNX model file of the reader is missing or cannot be loaded."""


#: Darkness (0 paper, 1 the writing's) above which a crop's pixel is ink to :func:`ink_box`.
INK_LEVEL = 0.15


def ink_box(ink: NDArray[np.float32]) -> tuple[int, int, int, int] | None:
    """The box (y0, y1, x0, x1) of the pixels of ``ink`` darker than ``INK_LEVEL``, the
    box :func:`to_input` scales into the network's frame; None when there is none."""
    if ink.size == 0:
        return None
    # (OpenCV's box of a mask's pixels: one pass, no rows and columns to reduce.)
    x, y, w, h = cv2.boundingRect((ink > INK_LEVEL).view(np.uint8))
    if w == 0:
        return None
    return y, y + h, x, x + w


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
    box = ink_box(ink)
    if box is None:
        return out
    y0, y1, x0, x1 = box
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


#: A row's outputs kept by :meth:`MarkNet.run`: log probabilities, underlined, crossed.
_Memo = tuple[NDArray[np.float32], float, float]


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
        self._split = _SplitNet.load(self.path.read_bytes(), self._outs)
        # Outputs already computed, by the input's bytes (see :meth:`run`), the oldest
        # dropped past ``_MEMO_SIZE``.
        self._memo: dict[bytes, _Memo] = {}
        _LOADED.add(self)

    def forget(self) -> None:
        """Drop the outputs kept by :meth:`run` (a benchmark's repeated runs then
        time the network again, as a photo's first reading does)."""
        self._memo.clear()

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
        # The reader reads many inputs more than once (a voter's turned view, then the
        # same view of its cluster; a view for two helper networks' checks): each row's
        # outputs are kept by its bytes (they do not depend on the rest of the batch)
        # and only the rows not read before are run.
        memo = self._memo
        keys = [row.tobytes() for row in blob]
        got: list[_Memo | None] = [memo.get(k) for k in keys]
        new = [i for i, g in enumerate(got) if g is None]
        if new:
            out = self._forward(blob[new] if len(new) < n else blob)
            for j, i in enumerate(new):
                entry = (out.logprobs[j], float(out.underlined[j]), float(out.crossed[j]))
                got[i] = memo[keys[i]] = entry
            while len(memo) > _MEMO_SIZE:
                del memo[next(iter(memo))]
        rows = [g for g in got if g is not None]
        return NetOutput(
            np.stack([r[0] for r in rows]),
            np.array([r[1] for r in rows], np.float32),
            np.array([r[2] for r in rows], np.float32),
        )

    def _forward(self, blob: NDArray[np.float32]) -> NetOutput:
        """The network's outputs for a (N, 1, INPUT_H, INPUT_W) batch, all run."""
        n = blob.shape[0]
        if self._split is not None:
            by_name = self._split.run(blob)
        else:
            self._net.setInput(blob, "x")
            outs = self._net.forward(self._outs)
            by_name = {k: np.asarray(v, np.float32) for k, v in zip(self._outs, outs, strict=True)}
        logits = np.asarray(by_name["logits"], np.float32).reshape(n, -1, len(ALPHABET) + 1)
        marks = np.asarray(by_name["marks"], np.float32).reshape(n, 2)
        logprobs = logits - _logsumexp(logits, axis=2)[..., None]
        probs = 1.0 / (1.0 + np.exp(-marks))
        p32 = np.asarray(probs, np.float32)
        return NetOutput(logprobs.astype(np.float32), p32[:, 0], p32[:, 1])


#: Inputs whose outputs :meth:`MarkNet.run` keeps (16 kB of input, 5 kB of outputs each).
_MEMO_SIZE = 512

#: Every network loaded in this process (see :func:`forget_outputs`).
_LOADED: weakref.WeakSet[MarkNet] = weakref.WeakSet()


def forget_outputs() -> None:
    """Drop the outputs every loaded network keeps (:meth:`MarkNet.forget`)."""
    for net in list(_LOADED):
        net.forget()


#: Output of the network's convolutional trunk: (N, 48, 4, INPUT_W // 4), one feature
#: column per 4 input columns, read by both heads.
_TRUNK_OUT = "/features/features.14/MaxPool_output_0"
#: Input columns that trunk column j sees: 4j - _FIELD_LEFT .. 4j + _FIELD_RIGHT (three
#: 3x3 convolutions, two 2x2 max-pools before the last two, one height-only pool after).
_FIELD_LEFT = 11
_FIELD_RIGHT = 14
#: Width steps (pixels) in which the narrowed inputs are batched together.
_WIDTH_STEP = 8


class _SplitNet:
    """The network run in two parts, the trunk only over the columns near ink.

    Writing fills a third of the input's width on average (a one-digit number about 24
    of 128 columns). A trunk column whose field holds no ink is the same as in an empty
    input, so it is taken from one run on a blank input; only the columns that see ink
    are computed, on a window of the input just wide enough that their fields lie inside
    it. The heads then run on the whole reassembled feature map: the outputs are those
    of the whole network (bitwise on OpenCV 5.0), for about 30% less work.
    """

    def __init__(self, trunk: Any, heads: Any, outs: list[str]) -> None:
        self.trunk, self.heads, self.outs = trunk, heads, outs
        self.blank = self._trunk(np.zeros((1, 1, INPUT_H, INPUT_W), np.float32))[0]

    @classmethod
    def load(cls, model: bytes, outs: list[str]) -> _SplitNet | None:
        """Both parts cut out of the ONNX file's bytes; None when the graph is not the
        expected one (the whole network is run then)."""
        try:
            trunk_b, heads_b = _onnx_split(model, _TRUNK_OUT, (48, 4))
            trunk = cv2.dnn.readNetFromONNX(np.frombuffer(trunk_b, np.uint8))
            heads = cv2.dnn.readNetFromONNX(np.frombuffer(heads_b, np.uint8))
            net = cls(trunk, heads, outs)
        except (ValueError, IndexError, cv2.error):
            return None
        if net.blank.shape != (48, 4, INPUT_W // 4):
            return None
        return net

    def _trunk(self, blob: NDArray[np.float32]) -> NDArray[np.float32]:
        self.trunk.setInput(blob, "x")
        return np.asarray(self.trunk.forward(), np.float32)

    def run(self, blob: NDArray[np.float32]) -> dict[str, NDArray[np.float32]]:
        """The whole network's outputs by name for a (N, 1, INPUT_H, INPUT_W) batch."""
        n = blob.shape[0]
        n_cols = INPUT_W // 4
        feats = np.repeat(self.blank[None], n, axis=0)
        ink = (blob[:, 0] != 0).any(axis=1)
        by_width: dict[int, list[tuple[int, int, int, int]]] = {}
        for i in range(n):
            cols = np.flatnonzero(ink[i])
            if cols.size == 0:
                continue
            # The trunk columns that see ink, and the input window their fields need.
            j0 = max(0, -(-(int(cols[0]) - _FIELD_RIGHT) // 4))
            j1 = min(n_cols - 1, (int(cols[-1]) + _FIELD_LEFT) // 4)
            w0 = max(0, 4 * j0 - _FIELD_LEFT) // 4 * 4
            w1 = min(INPUT_W, 4 * j1 + _FIELD_RIGHT + 1)
            width = min(INPUT_W, -(-(w1 - w0) // _WIDTH_STEP) * _WIDTH_STEP)
            by_width.setdefault(width, []).append((i, min(w0, INPUT_W - width), j0, j1))
        for width, items in by_width.items():
            part = np.ascontiguousarray(
                np.stack([blob[i, :, :, w0 : w0 + width] for i, w0, _, _ in items])
            )
            out = self._trunk(part)
            for k, (i, w0, j0, j1) in enumerate(items):
                c0 = w0 // 4
                feats[i, :, :, j0 : j1 + 1] = out[k, :, :, j0 - c0 : j1 + 1 - c0]
        self.heads.setInput(feats, _TRUNK_OUT)
        outs = self.heads.forward(self.outs)
        return {k: np.asarray(v, np.float32) for k, v in zip(self.outs, outs, strict=True)}


def _onnx_split(model: bytes, cut: str, shape: tuple[int, ...]) -> tuple[bytes, bytes]:
    """An ONNX model's bytes cut at tensor ``cut`` (of shape (N, *shape, W)) into the graph
    up to it and the graph after it, by editing the protocol buffer directly (the onnx
    package is only a training dependency).

    Raises ValueError when the graph has no node making ``cut``.
    """
    top = _pb_fields(model)
    gi = next(k for k, (f, _, _) in enumerate(top) if f == 7)  # ModelProto.graph
    graph = _pb_fields(top[gi][2])
    nodes = []  # (bytes, inputs, outputs) in graph order (NodeProto input 1, output 2)
    for f, _, v in graph:
        if f == 1:
            nf = _pb_fields(v)
            ins = {bytes(x[2]).decode() for x in nf if x[0] == 1}
            outs = {bytes(x[2]).decode() for x in nf if x[0] == 2}
            nodes.append((v, ins, outs))
    at = [k for k, (_, _, outs) in enumerate(nodes) if cut in outs]
    if not at:
        raise ValueError(f"no node makes {cut}")
    # (Batch and width symbolic: the trunk also runs on narrower inputs.)
    dims = [_pb([(1, 2, _pb([(2, 2, b"n")]))])]
    dims += [_pb([(1, 2, _pb([(1, 0, d)]))]) for d in shape]
    dims += [_pb([(1, 2, _pb([(2, 2, b"w")]))])]
    tensor_type = _pb([(1, 0, 1), (2, 2, b"".join(dims))])  # float, shape
    value_info = _pb([(1, 2, cut.encode()), (2, 2, _pb([(1, 2, tensor_type)]))])

    def subgraph(part: list[tuple[bytes, set[str], set[str]]], drop: set[int], extra: int) -> bytes:
        used = set().union(*(ins for _, ins, _ in part))
        fields = [(1, 2, v) for v, _, _ in part]
        for f, wt, v in graph:
            if f == 1 or f in drop:
                continue
            if f == 5:  # initializer: kept when a kept node reads it (TensorProto.name 8)
                name = next(bytes(x[2]).decode() for x in _pb_fields(v) if x[0] == 8)
                if name not in used:
                    continue
            fields.append((f, wt, v))
        fields.append((extra, 2, value_info))
        out = list(top)
        out[gi] = (7, 2, _pb(fields))
        return _pb(out)

    # GraphProto: input 11, output 12, value_info 13.
    trunk = subgraph(nodes[: at[0] + 1], {12, 13}, 12)
    heads = subgraph(nodes[at[0] + 1 :], {11, 13}, 11)
    return trunk, heads


def _pb_varint(b: bytes, i: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        c = b[i]
        i += 1
        value |= (c & 0x7F) << shift
        shift += 7
        if c < 0x80:
            return value, i


def _pb_fields(b: bytes) -> list[tuple[int, int, Any]]:
    """A protocol buffer message's fields: (number, wire type, int or bytes)."""
    i = 0
    out: list[tuple[int, int, Any]] = []
    while i < len(b):
        key, i = _pb_varint(b, i)
        f, wt = key >> 3, key & 7
        if wt == 0:
            v, i = _pb_varint(b, i)
            out.append((f, wt, v))
        elif wt == 2:
            size, i = _pb_varint(b, i)
            out.append((f, wt, bytes(b[i : i + size])))
            i += size
        elif wt in (1, 5):
            size = 8 if wt == 1 else 4
            out.append((f, wt, bytes(b[i : i + size])))
            i += size
        else:
            raise ValueError(f"unsupported protobuf wire type {wt}")
    return out


def _pb_varint_bytes(v: int) -> bytes:
    out = bytearray()
    while True:
        c, v = v & 0x7F, v >> 7
        if not v:
            out.append(c)
            return bytes(out)
        out.append(c | 0x80)


def _pb(fields: list[tuple[int, int, Any]]) -> bytes:
    out = bytearray()
    for f, wt, v in fields:
        out += _pb_varint_bytes((f << 3) | wt)
        if wt == 0:
            out += _pb_varint_bytes(v)
        elif wt == 2:
            out += _pb_varint_bytes(len(v)) + v
        else:
            out += v
    return bytes(out)


@lru_cache(maxsize=4)
def load_net(path: str | None = None) -> MarkNet:
    """Load (once per process) the recogniser; see :class:`MarkNet`."""
    return MarkNet(path)


def load_second_net() -> MarkNet:
    """Load (once per process) the second network, ``models/marks_second.onnx``."""
    return load_net(str(SECOND_MODEL_PATH))


def load_pairs_net() -> MarkNet:
    """Load (once per process) the pair network, ``models/marks_pairs.onnx``."""
    return load_net(str(PAIRS_MODEL_PATH))


def load_crossed_net() -> MarkNet:
    """Load (once per process) the crossed-out reader, ``models/marks_crossed.onnx``."""
    return load_net(str(CROSSED_MODEL_PATH))


def load_named_net(name: str) -> MarkNet:
    """Load (once per process) a helper network by its settings name: "crossed"
    (:func:`load_crossed_net`), "second" (:func:`load_second_net`) or "pairs"
    (:func:`load_pairs_net`).

    Raises
    ------
    ValueError
        For another name.
    """
    if name == "crossed":
        return load_crossed_net()
    if name == "second":
        return load_second_net()
    if name == "pairs":
        return load_pairs_net()
    raise ValueError(f"unknown network {name!r} (expected 'crossed', 'second' or 'pairs')")


def number_mass(net: MarkNet, ink: NDArray[np.float32], *, least: int = 1) -> float:
    """The posterior mass, over the closed vocabulary (see
    :func:`closed_vocabulary`), that ``ink`` (a darkness crop, see
    :func:`to_input`) reads as a number ``least``..100."""
    ll = ctc_log_likelihood(net.run(to_input(ink)[None]).logprobs, closed_vocabulary())[0]
    post = np.exp(ll - ll.max())
    return float(post[least : 1 + MAX_ARMIES].sum() / post.sum())


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


@lru_cache(maxsize=1)
def closed_vocabulary() -> tuple[str, ...]:
    """The texts a cluster can be without pairs: nothing, the numbers 1-100 and the
    letters A-Z (the head of :func:`vocabulary`)."""
    return vocabulary()[: 1 + MAX_ARMIES + len(LETTERS)]


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
    steps = _ctc_steps(tuple(candidates), n_cls)
    nodes = steps.code.size
    # Time-major and node-major: the label states (the first ``nodes`` rows) and blank
    # states (the others) of the nodes, one more node than the tree's always zero
    # (``_ctc_steps``), each a row of the batch; each step gathers whole rows for the
    # parents. One gather, one maximum and one division per step for both kinds of
    # state; the same arithmetic in the same order.
    emit = np.ascontiguousarray(probs[:, :, steps.code].transpose(1, 2, 0))  # (T, nodes, n)
    blank_p = np.ascontiguousarray(probs[:, :, 0].T)  # (T, n)
    state = np.zeros((2 * nodes, n), dtype)
    state[:nodes] = np.where((steps.parent == 0)[:, None], emit[0], 0.0)
    state[0] = 0.0
    state[nodes] = blank_p[0]
    other = np.empty_like(state)
    # (Where every state is zero, a scale of the least float instead of 1: the states
    # stay zero and the likelihoods -inf all the same.)
    least = np.finfo(dtype).smallest_subnormal
    # Both buffers and their label and blank halves, made once (they alternate).
    halves = [
        (a, b, a[:nodes], a[nodes:], b[:nodes], b[nodes:])
        for a, b in ((state, other), (other, state))
    ]
    gather, top = steps.gather, np.maximum.reduce
    scales = []
    for t in range(1, t_len):
        # The label state of a node is entered from its parent's blank state, and from
        # its parent's label state unless the two characters are equal (CTC needs a
        # blank then: that term is zero, the zero node's).
        cur, new, lab, blank, new_lab, new_blank = halves[(t - 1) & 1]
        np.take(cur, gather, axis=0, out=new)
        new_lab += lab
        new_lab += new_blank
        new_lab *= emit[t]
        np.add(blank, lab, out=new_blank)
        new_blank *= blank_p[t]
        c = top(new, axis=0)
        np.maximum(c, least, out=c)
        new /= c
        scales.append(c)
    state = halves[(t_len - 1) & 1][0]
    if scales:
        # (Summed in the steps' order: a running sum.)
        log_scale = np.cumsum(np.log(np.stack(scales).astype(np.float64)), axis=0)[-1]
    else:
        log_scale = np.zeros(n)
    last = (state[trie.end] + state[nodes + trie.end]).T.astype(np.float64)
    with np.errstate(divide="ignore"):
        return np.log(last) + log_scale[:, None]


@dataclass(frozen=True)
class _Steps:
    """Index arrays of :func:`ctc_log_likelihood`'s recursion over a :class:`_Trie` with
    one more node (the last), a zero state: its own parent, emitting nothing."""

    code: NDArray[np.int64]  # each node's class (the root and the zero node: the zero class)
    parent: NDArray[np.int64]
    # The rows of the (2 * nodes, n) label and blank states each node's new label state
    # adds: its parent's blank state, then its parent's label state (the zero node's
    # when the two characters are equal).
    gather: NDArray[np.int64]


@lru_cache(maxsize=64)
def _ctc_steps(candidates: tuple[str, ...], n_cls: int) -> _Steps:
    trie = _trie(candidates)
    nodes = trie.code.size + 1
    zero = nodes - 1
    code = np.append(trie.code, n_cls)
    code[0] = n_cls
    parent = np.append(trie.parent, zero)
    from_lab = parent.copy()
    from_lab[np.flatnonzero(trie.repeat)] = zero
    gather = np.concatenate([parent + nodes, from_lab])
    return _Steps(code, parent, gather)


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

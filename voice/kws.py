"""The project's own neural keyword spotters: the UNO call ("uno" / "ウノ") and a
wild's colour.

A small 1-D convolutional network (depthwise-separable blocks along time, the 40
log-mel bands as channels, about 30 k parameters) looks at the last second of audio
and says how likely it holds a whole call word said as a call. It was trained here on
espeak-ng speech mixed with table noise (``python -m training.voice``; recipe and
numbers in ``models/VOICE_MODEL_CARD.md``) and ships as ``models/uno-kws.pt``.

Streaming (:class:`NeuralSpotter`): the last :data:`WINDOW_FRAMES` frames are scored
every :attr:`KwsConfig.hop` seconds; a call fires when ``min_hits`` consecutive
scores reach ``threshold``, and then the spotter keeps quiet for ``refractory``
seconds. Features are normalised per window (each band's mean removed, divided by
the window's spread), so loudness and a steady noise colour do not matter.

The same code runs the colour spotter (``models/colour-kws.pt``,
``python -m training.voice --words colours``; card
``models/COLOUR_MODEL_CARD.md``): its classes are :data:`COLOUR_CLASSES`, a
window's keyword probability is the four colours' sum, and each call it reports
carries a fifth element, the index of the colour most probable over the windows
that fired. Other call words (a player's name in tgus-t) go through the
pocketsphinx path of :mod:`voice.spotter`.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from voice.audio import RATE

N_MELS = 40
WIN = 400  # 25 ms analysis window
HOP = 160  # 10 ms between frames
NFFT = 512
WINDOW_FRAMES = 100  # frames the network sees: 1.015 s of audio
#: frames of background a cut view (:attr:`KwsConfig.cut_keep`) is filled with:
#: the quietest frames of the spotter's last 3 s, in their order
CUT_BACKGROUND = 30
CLASSES = ("uno", "speech", "noise")
COLOUR_CLASSES = ("red", "blue", "green", "yellow", "speech", "noise")
"""The colour spotter's classes (``models/colour-kws.pt``): one per wild colour,
English and Japanese words alike, then anything else said, then noise."""
DEFAULT_MODEL = Path(__file__).resolve().parents[1] / "models" / "uno-kws.pt"
COLOUR_MODEL = DEFAULT_MODEL.with_name("colour-kws.pt")
_HANN = np.hanning(WIN).astype(np.float32)


class ModelError(RuntimeError):
    """The keyword model file is missing, unreadable or not a keyword model."""


def mel_filterbank(n_mels: int = N_MELS, nfft: int = NFFT, rate: int = RATE,
                   low: float = 60.0, high: float = 7600.0) -> np.ndarray:
    """Triangular mel filters, shape ``(nfft // 2 + 1, n_mels)``."""
    def to_mel(f: np.ndarray | float) -> np.ndarray:
        return 2595.0 * np.log10(1.0 + np.asarray(f) / 700.0)

    mels = np.linspace(to_mel(low), to_mel(high), n_mels + 2)
    hz = 700.0 * (10 ** (mels / 2595.0) - 1.0)
    bins = np.fft.rfftfreq(nfft, 1.0 / rate)
    fb = np.zeros((len(bins), n_mels), np.float32)
    for m in range(n_mels):
        lo, mid, hi = hz[m], hz[m + 1], hz[m + 2]
        up = (bins - lo) / (mid - lo)
        down = (hi - bins) / (hi - mid)
        fb[:, m] = np.clip(np.minimum(up, down), 0.0, None)
    return fb


_FB = mel_filterbank()


def log_mel(x: np.ndarray) -> np.ndarray:
    """Log-mel frames of float samples at 16 kHz: shape ``(frames, N_MELS)``, or
    ``(batch, frames, N_MELS)`` for a ``(batch, samples)`` array.

    Frame ``i`` covers samples ``[i * HOP, i * HOP + WIN)``; audio shorter than one
    window gives no frames.
    """
    x = np.asarray(x, np.float32)
    if x.shape[-1] < WIN:
        return np.zeros(x.shape[:-1] + (0, N_MELS), np.float32)
    frames = np.lib.stride_tricks.sliding_window_view(x, WIN, axis=-1)[..., ::HOP, :]
    spec = np.fft.rfft(frames * _HANN, NFFT, axis=-1)
    power = spec.real ** 2 + spec.imag ** 2
    return np.log(power.astype(np.float32) @ _FB + 1e-6)


def normalise(feats: np.ndarray) -> np.ndarray:
    """Per-window normalisation of ``(..., frames, N_MELS)`` log-mel features: each
    band's mean over the window removed, then divided by the window's spread."""
    centred = feats - feats.mean(axis=-2, keepdims=True)
    spread = np.sqrt((centred ** 2).mean(axis=(-2, -1), keepdims=True))
    return (centred / (spread + 0.1)).astype(np.float32)


def build_model(width: int = 64, blocks: tuple[int, ...] = (2, 1, 2, 1, 2, 1),
                classes: int = len(CLASSES)):
    """The network: a 1-D stem over the mel bands, depthwise-separable temporal
    blocks (``blocks`` are their strides), average pooling, a linear layer to
    ``classes`` logits."""
    import torch
    from torch import nn

    class DSBlock(nn.Module):
        def __init__(self, channels: int, stride: int):
            super().__init__()
            self.dw = nn.Conv1d(channels, channels, 9, stride, 4, groups=channels,
                                bias=False)
            self.bn1 = nn.BatchNorm1d(channels)
            self.pw = nn.Conv1d(channels, channels, 1, bias=False)
            self.bn2 = nn.BatchNorm1d(channels)
            self.stride = stride

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            y = torch.relu(self.bn1(self.dw(x)))
            y = self.bn2(self.pw(y))
            if self.stride == 1:
                y = y + x
            return torch.relu(y)

    class KwsNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.stem = nn.Sequential(nn.Conv1d(N_MELS, width, 3, 1, 1, bias=False),
                                      nn.BatchNorm1d(width), nn.ReLU())
            self.blocks = nn.Sequential(*[DSBlock(width, s) for s in blocks])
            self.drop = nn.Dropout(0.1)
            self.head = nn.Linear(width, classes)

        def forward(self, feats: torch.Tensor) -> torch.Tensor:
            """``(batch, frames, N_MELS)`` normalised features -> class logits."""
            y = self.blocks(self.stem(feats.transpose(1, 2)))
            return self.head(self.drop(y.mean(dim=2)))

    return KwsNet()


@dataclass(frozen=True)
class KwsConfig:
    """Decision settings of the neural spotter.

    Attributes:
        threshold: the probability of the call class a window must reach.
        min_hits: consecutive windows at or above ``threshold`` before a call fires.
        hop: seconds between scored windows.
        refractory: seconds after a call during which no other call fires.
        min_level: no call fires while the last second is quieter than this
            (dBFS RMS: digital silence, a muted microphone).
        smooth: windows whose probabilities are averaged before the decision
            (odd; 1: none): the probability decided at a window is the mean of
            that window and its ``smooth // 2`` neighbours on each side, windows
            shifted by ``hop`` around it, so the decision waits ``smooth // 2``
            windows longer. A word whose windows hover just under the threshold
            (a colour said over other voices) is heard, a single window's
            spike is not.
        margin: a model with several keyword classes (the colours): a run of
            windows fires only when its likeliest class holds at least this
            share of the keyword classes' probability summed over the run
            (0: always); a run below it fires nothing but still starts the
            ``refractory`` quiet (the word was heard, its colour is unsure).
        cut_keep: **cut views** (a model with one keyword class, the UNO
            call): each window is also scored with all but its last ``k``
            frames (10 ms each) replaced by the stream's background (the
            :data:`CUT_BACKGROUND` quietest frames of the last 3 s), for each
            ``k`` given. A call said over the end of another voice's word
            ("Red!" and "Uno!" said at once) is a call followed by nothing, but
            the whole window hears speech running into it, which the network was
            taught is no call; the cut view hears the call alone. Empty: none
            (a window costs one network pass per view).
        cut_threshold: the probability a cut view must reach to count as a hit
            (the best of the cut views of a window), never less than
            ``threshold`` (a stricter call threshold is stricter for both
            views); None: ``threshold``. A
            window is a hit when the whole window reaches ``threshold`` or a
            cut view reaches ``cut_threshold``; ``min_hits`` such windows in a
            row fire.
        cut_noise: cut views are scored only for windows whose ``noise``
            class (the whole window) is below this probability: something is
            said in the window (1.0: every window). Quiet stretches then cost
            one network pass.
        likely_cut_threshold: a second decision on the same window scores
            (no extra network pass), with the cut views counted as hits from
            this probability (never below ``threshold``): a call said over
            most of another voice's word keeps a cut view just under
            ``cut_threshold``. Its calls that the first decision does not make
            (no call of that decision ends within ``refractory`` of it, by
            :data:`LIKELY_HOLD` seconds after it was decided) are **likely
            calls**, kept apart (:meth:`NeuralSpotter.take_likely`) for a
            listener that counts them only where a call is expected (the
            game's listener: only a call it can attribute makes an event,
            :mod:`voice.attribution`). None, or no cut views: none.
        likely_min_rise: the likely decision counts a cut view only in a
            window whose last second is at least this many dB louder than
            the stream's background (the 10th percentile of its 10 ms frames
            over the last 1.5 s): a voice, not a card's slap in the room's
            noise.
    """

    threshold: float = 0.9
    min_hits: int = 2
    hop: float = 0.05
    refractory: float = 1.0
    min_level: float = -70.0
    smooth: int = 1
    margin: float = 0.0
    cut_keep: tuple[int, ...] = ()
    cut_threshold: float | None = None
    cut_noise: float = 1.0
    likely_cut_threshold: float | None = None
    likely_min_rise: float = 9.0


#: seconds a likely call (:attr:`KwsConfig.likely_cut_threshold`) waits after
#: it was decided for the first decision to make the same call
LIKELY_HOLD = 0.5


class KwsModel:
    """The trained network, loaded from a file, run with numpy.

    The weights are read with torch; inference is plain numpy (batch norm folded
    into the convolutions), so that scoring a window costs no thread start-up and
    never competes with torch's thread pool in the same process (the camera's
    detector).

    Raises:
        ModelError: the file is missing, unreadable, or not a keyword model.
        ImportError: torch is not installed.
    """

    def __init__(self, path: str | Path | None = None,
                 classes: tuple[str, ...] = CLASSES):
        import torch

        self.path = Path(path) if path is not None else \
            (DEFAULT_MODEL if classes == CLASSES else COLOUR_MODEL)
        if not self.path.is_file():
            how = "" if classes == CLASSES else " --words colours"
            raise ModelError(f"keyword model not found: {self.path} "
                             f"(train one with 'python -m training.voice{how}')")
        try:
            blob = torch.load(self.path, map_location="cpu", weights_only=True)
            meta = blob["meta"]
            # one network ("state"), or several of one shape ("states"): an
            # ensemble, whose window probability is the members' mean
            states = blob["states"] if "states" in blob else [blob["state"]]
            self.models = []
            for state in states:
                net = build_model(**meta.get("arch", {}),
                                  classes=len(meta.get("classes", CLASSES)))
                net.load_state_dict(state)
                self.models.append(net.eval())
        except Exception as exc:  # corrupt, truncated, or another kind of file
            raise ModelError(f"cannot load keyword model {self.path}: "
                             f"{type(exc).__name__}: {exc}") from None
        if tuple(meta.get("classes", ())) != classes:
            kind = "an uno" if classes == CLASSES else "a colour"
            raise ModelError(f"{self.path} is not {kind} keyword model "
                             f"(classes {meta.get('classes')!r}, want "
                             f"{list(classes)!r})")
        self.classes = classes
        self.meta = meta
        self._members = [_fold(net) for net in self.models]
        self._stack = _stack(self._members)

    def probabilities(self, feats: np.ndarray) -> np.ndarray:
        """Class probabilities of ``(batch, WINDOW_FRAMES, N_MELS)`` raw log-mel
        features (normalised here): shape ``(batch, len(self.classes))``; the mean
        of the members' for an ensemble (every member in one pass,
        :func:`_forward_members`: each member's numbers as it gives them run
        alone)."""
        x = normalise(feats).transpose(0, 2, 1)  # (batch, bands, frames)
        probs = list(_forward_members(self._stack, x))
        return (sum(probs) / len(probs)).astype(np.float32)


def _stack(members: list[dict]) -> dict:
    """Folded networks of one shape (:func:`_fold`) with each weight stacked
    along a new first axis, one per member; each member's slice keeps the
    layout (strides) of its own array, so every product is computed as for
    that member alone."""
    blocks = []
    for parts in zip(*(m["blocks"] for m in members)):
        dw_w, dw_b, pw_w, pw_b = (np.stack([p[i] for p in parts]) for i in range(4))
        blocks.append((dw_w, dw_b, pw_w, pw_b, parts[0][4]))
    return {
        "stem": tuple(np.stack([m["stem"][i] for m in members]) for i in range(2)),
        "blocks": blocks,
        "head": tuple(np.stack([m["head"][i] for m in members]) for i in range(2)),
    }


def _forward_members(stack: dict, x: np.ndarray) -> np.ndarray:
    """Every member of an ensemble (:func:`_stack`) on normalised ``(batch,
    bands, frames)`` features: ``(members, batch, classes)`` probabilities,
    member ``m``'s exactly as that member run alone (the same operations on
    the same numbers, the members side by side: one numpy call for all of
    them instead of one each)."""
    stem_w, stem_b = stack["stem"]  # (M, out, in, k), (M, out)
    k, t = stem_w.shape[3], x.shape[2]
    xp = _padded(x, 1)[None]  # (1, batch, in, time + 2)
    out = stem_b[:, None, :, None] + np.matmul(stem_w[:, None, :, :, 0], xp[..., :t])
    for i in range(1, k):
        out += np.matmul(stem_w[:, None, :, :, i], xp[..., i:i + t])
    x = np.maximum(out, 0.0)  # (M, batch, ch, time)
    for dw_w, dw_b, pw_w, pw_b, stride in stack["blocks"]:
        kk, tt = dw_w.shape[2], x.shape[3]
        xq = _padded(x, kk // 2)
        y = np.zeros(x.shape[:3] + ((tt - 1) // stride + 1,), np.float32)
        for i in range(kk):
            y += dw_w[:, None, :, i:i + 1] * xq[..., i:i + tt:stride]
        y = np.maximum(y + dw_b[:, None, :, None], 0.0)
        y = np.matmul(pw_w[:, None], y) + pw_b[:, None, :, None]
        x = np.maximum(y + x if stride == 1 else y, 0.0)
    head_w, head_b = stack["head"]
    logits = x.mean(axis=3) @ head_w.transpose(0, 2, 1) + head_b[:, None, :]
    logits -= logits.max(axis=2, keepdims=True)
    e = np.exp(logits)
    return e / e.sum(axis=2, keepdims=True)


def _padded(x: np.ndarray, pad: int) -> np.ndarray:
    """``x`` with ``pad`` zeros before and after its last axis (``np.pad``'s
    values, without its cost)."""
    out = np.zeros(x.shape[:-1] + (x.shape[-1] + 2 * pad,), np.float32)
    out[..., pad:pad + x.shape[-1]] = x
    return out


def _fold(model) -> dict:
    """The network's weights as numpy arrays, batch norm folded into the convs."""
    def bn(conv_w, norm) -> tuple[np.ndarray, np.ndarray]:
        w = conv_w.detach().numpy()
        scale = (norm.weight / (norm.running_var + norm.eps).sqrt()).detach().numpy()
        bias = (norm.bias.detach().numpy() - norm.running_mean.numpy() * scale)
        return (w * scale.reshape(-1, *[1] * (w.ndim - 1))).astype(np.float32), \
            bias.astype(np.float32)

    blocks = []
    for block in model.blocks:
        dw_w, dw_b = bn(block.dw.weight, block.bn1)
        pw_w, pw_b = bn(block.pw.weight, block.bn2)
        blocks.append((dw_w[:, 0, :], dw_b, pw_w[:, :, 0], pw_b, block.stride))
    return {"stem": bn(model.stem[0].weight, model.stem[1]), "blocks": blocks,
            "head": (model.head.weight.detach().numpy(),
                     model.head.bias.detach().numpy())}


class Decider:
    """Turns a stream of window scores into calls: ``min_hits`` consecutive windows
    at or above the threshold fire one call, then ``refractory`` seconds of quiet.

    Separate from :class:`NeuralSpotter` so that recorded scores can be replayed
    under other settings (threshold tuning, ``benchmarks/eval_voice.py``).
    """

    def __init__(self, config: KwsConfig):
        if config.smooth < 1 or config.smooth % 2 == 0:
            raise ValueError(f"smooth must be an odd number >= 1, not {config.smooth}")
        self.config = config
        self._recent: list[tuple] = []  # the last `smooth` windows, raw
        self._run = 0  # consecutive windows above threshold
        self._run_start = 0.0
        self._run_peak = 0.0
        self._run_parts: np.ndarray | None = None  # keyword classes' summed probs
        self._quiet_until = -math.inf

    def step(self, t: float, prob: float, level: float,
             parts=None, cut: float | None = None) -> list[tuple]:
        """One scored window ending at ``t`` s, with the call probability and the
        last second's level (dBFS); returns the call decided by it, if any, as
        ``(start, end, prob, decided_at)``.

        A model with several keyword classes (the colours) gives ``prob`` as their
        sum and ``parts`` as each one's probability; its calls then carry a fifth
        element, the index of the keyword class most probable over the windows
        that fired.

        ``cut`` is the best cut view's call probability
        (:attr:`KwsConfig.cut_keep`; None: no cut views): the window is a hit
        when ``prob`` reaches ``threshold`` or ``cut`` reaches ``cut_threshold``.

        With ``smooth`` > 1 the windows are averaged first: the window decided
        is the one ``smooth // 2`` windows back (its time, its level), with the
        mean probabilities of the ``smooth`` windows around it."""
        if self.config.smooth > 1:
            self._recent = self._recent[1 - self.config.smooth:] + [
                (t, prob, level, parts, cut)]
            if len(self._recent) < self.config.smooth:
                return []
            centre = self._recent[len(self._recent) // 2]
            prob = float(np.mean([w[1] for w in self._recent]))
            if parts is not None:
                parts = np.mean([np.asarray(w[3], np.float64)
                                 for w in self._recent], axis=0)
            if cut is not None:
                cut = float(np.mean([w[4] if w[4] is not None else w[1]
                                     for w in self._recent]))
            return self._decide(centre[0], prob, centre[2], parts, t, cut)
        return self._decide(t, prob, level, parts, t, cut)

    def _decide(self, t: float, prob: float, level: float, parts,
                now: float, cut: float | None = None) -> list[tuple]:
        """The decision at the window ending at ``t`` (already averaged),
        made at ``now``."""
        cfg = self.config
        cut_threshold = cfg.threshold if cfg.cut_threshold is None else \
            max(cfg.cut_threshold, cfg.threshold)
        by_cut = cut is not None and cut >= cut_threshold
        if (prob >= cfg.threshold or by_cut) and level >= cfg.min_level and \
                t >= self._quiet_until:
            if self._run == 0:
                self._run_start, self._run_peak = t, 0.0
                self._run_parts = None
            self._run += 1
            self._run_peak = max(self._run_peak, prob, cut if by_cut else 0.0)
            if parts is not None:
                parts = np.asarray(parts, np.float64)
                self._run_parts = parts if self._run_parts is None else \
                    self._run_parts + parts
            if self._run >= cfg.min_hits:
                return self._fire(now)
        else:
            self._run = 0
        return []

    def flush(self, t: float = math.inf) -> list[tuple[float, float, float, float]]:
        """The call still being confirmed when the audio ended (at ``t`` s)."""
        return self._fire(t) if self._run else []

    def _fire(self, t: float) -> list[tuple]:
        # the first window above threshold ends about one hop after the word
        word_end = max(self._run_start - self.config.hop, 0.0)
        self._quiet_until = self._run_start + self.config.refractory
        self._run = 0
        call = (max(word_end - 0.45, 0.0), word_end, self._run_peak, t)
        if self._run_parts is not None:
            parts = self._run_parts
            if parts.max() < self.config.margin * parts.sum():
                return []  # no colour holds the run: heard, but not named
            call += (int(np.argmax(parts)),)
        return [call]


class Decisions:
    """The spotter's decision (:class:`Decider`) and, with
    :attr:`KwsConfig.likely_cut_threshold`, the likely one beside it on the
    same scores: :meth:`step` returns the first decision's calls as
    :meth:`Decider.step` does; the likely decision's calls that the first does
    not make (no call of it ends within ``refractory`` of theirs by
    :data:`LIKELY_HOLD` s after they were decided, or by the end) collect in
    :attr:`likely`."""

    def __init__(self, config: KwsConfig):
        self.config = config
        self.sure = Decider(config)
        on = config.likely_cut_threshold is not None and bool(config.cut_keep)
        self._likely = Decider(dataclasses.replace(
            config, cut_threshold=config.likely_cut_threshold)) if on else None
        self._ends: list[float] = []  # word ends of the first decision's calls
        self._pending: list[tuple] = []  # likely calls waiting for LIKELY_HOLD
        #: likely calls settled, oldest first (a caller takes them away)
        self.likely: list[tuple] = []

    def step(self, t: float, prob: float, level: float, parts=None,
             cut: float | None = None, rise: float = math.inf) -> list[tuple]:
        """One window, as :meth:`Decider.step`; ``rise``: how many dB the last
        second stands above the background (the likely decision counts a cut
        view only from :attr:`KwsConfig.likely_min_rise`)."""
        calls = self.sure.step(t, prob, level, parts, cut)
        if self._likely is not None:
            loud = rise >= self.config.likely_min_rise
            self._pending += self._likely.step(t, prob, level, parts,
                                               cut if loud else None)
            self._settle(calls, t)
        return calls

    def flush(self, t: float = math.inf) -> list[tuple]:
        calls = self.sure.flush(t)
        if self._likely is not None:
            self._pending += self._likely.flush(t)
            self._settle(calls, math.inf)
        return calls

    def _settle(self, calls: list[tuple], now: float) -> None:
        gap = self.config.refractory
        self._ends = [e for e in self._ends if e > now - 3 * gap - LIKELY_HOLD]
        self._ends += [c[1] for c in calls]
        left = []
        for call in self._pending:
            if any(abs(call[1] - end) <= gap for end in self._ends):
                continue  # the first decision heard this word too
            if now >= call[3] + LIKELY_HOLD:
                self.likely.append(call)
            else:
                left.append(call)
        self._pending = left


def replay(trace: list[tuple], config: KwsConfig, likely: bool = False):
    """The calls ``(start, end, prob, decided_at)`` a recorded ``(t, prob, level)``
    trace gives under ``config`` (``(t, prob, level, parts)`` for a model with
    several keyword classes: then the calls carry the class index too;
    ``(t, prob, level, parts, cut)`` for a spotter with cut views, ``parts``
    None for a model with one keyword class). The cut views' probability is
    used only when ``config.cut_keep`` asks for cut views; a sixth field is
    the window's rise over the background (dB; none recorded: loud enough).
    ``likely``: a pair, the calls and the likely calls
    (:attr:`KwsConfig.likely_cut_threshold`)."""
    decider = Decisions(config)
    found = []
    for t, prob, level, *rest in trace:
        parts = rest[0] if rest else None
        cut = rest[1] if len(rest) > 1 and config.cut_keep else None
        rise = rest[2] if len(rest) > 2 else math.inf
        found += decider.step(t, prob, level, parts, cut, rise)
    found += decider.flush(trace[-1][0] if trace else 0.0)
    return (found, decider.likely) if likely else found


class NeuralSpotter:
    """Feed 16 kHz mono 16-bit PCM with :meth:`feed`; get ``(start, end, prob,
    decided_at)`` tuples for each call heard (seconds from the start of the audio;
    a colour model adds the colour's class index, ``(start, end, prob,
    decided_at, index)``).

    ``end`` is where the first window that heard the whole word ended, minus one
    hop: a close estimate of when the word ended; ``start`` is where the loud
    stretch leading up to it began (the network does not locate the word). ``prob``
    is the highest call probability of the windows that fired.

    Args:
        model: a loaded :class:`KwsModel` (shared between spotters is fine).
        config: decision settings.
        record: keep every window's ``(t, prob, level)`` in :attr:`trace`.
    """

    def __init__(self, model: KwsModel, config: KwsConfig | None = None,
                 record: bool = False):
        self.model = model
        self.config = config or KwsConfig()
        self.trace: list[tuple[float, float, float]] = []
        self._record = record
        self._decider = Decisions(self.config)
        self._samples = np.zeros(0, np.float32)  # not yet framed
        self._consumed = 0  # samples dropped from _samples so far
        self._feats = np.zeros((0, N_MELS), np.float32)  # the newest frames
        self._frames_done = 0  # frames computed so far
        self._next_score = WINDOW_FRAMES  # frame count at which to score next
        self._energy: list[float] = []  # mean square per 10 ms, the last 1.5 s

    @property
    def seconds(self) -> float:
        """Seconds of audio fed so far."""
        return (self._consumed + len(self._samples)) / RATE

    def feed(self, pcm: bytes) -> list[tuple[float, float, float, float]]:
        """Process a chunk of audio; returns the calls decided by the end of it."""
        x = np.frombuffer(pcm, dtype="<i2").astype(np.float32) / 32768.0
        self._samples = np.concatenate([self._samples, x])
        frames = log_mel(self._samples)
        if len(frames):
            used = len(frames) * HOP
            square = self._samples[:used].reshape(-1, HOP) ** 2
            self._energy.extend(square.mean(axis=1).tolist())
            del self._energy[:-WINDOW_FRAMES * 3 // 2]
            self._consumed += used
            self._samples = self._samples[used:]
            self._feats = np.concatenate([self._feats, frames])[-WINDOW_FRAMES * 3:]
            self._frames_done += len(frames)
        return self._score_ready()

    def flush(self) -> list[tuple[float, float, float, float]]:
        """Decide the call still being confirmed at the end of the audio."""
        return self._decider.flush(self.seconds)

    def take_likely(self) -> list[tuple[float, float, float, float]]:
        """The likely calls (:attr:`KwsConfig.likely_cut_threshold`) settled
        since the last time, ``(start, end, prob, decided_at)`` like
        :meth:`feed`'s; ``prob`` is the best cut view's."""
        calls, self._decider.likely = self._decider.likely, []
        return [(self._word_start(c[1]),) + tuple(c[1:]) for c in calls]

    def _score_ready(self) -> list[tuple[float, float, float, float]]:
        step = max(1, int(round(self.config.hop * RATE / HOP)))
        windows, ends = [], []
        while self._next_score <= self._frames_done:
            at = self._next_score
            self._next_score += step
            back = self._frames_done - at  # frames newer than this window's end
            if back + WINDOW_FRAMES > len(self._feats):
                continue
            end_i = len(self._feats) - back
            windows.append(self._feats[end_i - WINDOW_FRAMES:end_i])
            ends.append(((at - 1) * HOP + WIN) / RATE)
        if not windows:
            return []
        scores = self.model.probabilities(np.stack(windows))
        keywords = len(getattr(self.model, "classes", CLASSES)) - 2
        probs = scores[:, :keywords].sum(axis=1)
        cuts: list[float | None] = [None] * len(windows)
        if self.config.cut_keep and keywords == 1:
            said = [i for i in range(len(windows))
                    if scores[i, -1] < self.config.cut_noise]
            if said:
                for i, cut in zip(said, self._cut_scores([windows[i] for i in said])):
                    cuts[i] = cut
        level = 10 * math.log10(float(np.mean(self._energy[-WINDOW_FRAMES:])) + 1e-12)
        # the last second over the background (the quietest tenth of the 10 ms
        # frames of the last 1.5 s): the likely decision's loudness check
        rise = level - float(np.percentile(
            10 * np.log10(np.asarray(self._energy) + 1e-12), 10))
        found: list[tuple] = []
        for t, prob, parts, cut in zip(ends, probs, scores[:, :keywords], cuts):
            parts = parts if keywords > 1 else None
            if self._record:
                row = (round(t, 3), float(prob), round(level, 1))
                if parts is not None or cut is not None:
                    row += (None if parts is None else parts.round(4).tolist(),)
                if cut is not None:
                    row += (round(cut, 4), round(rise, 1))
                self.trace.append(row)
            found += [(self._word_start(call[1]),) + call[1:]
                      for call in self._decider.step(t, float(prob), level, parts,
                                                     cut, rise)]
        return found

    def _cut_scores(self, windows: list[np.ndarray]) -> list[float]:
        """Each window's best cut view (:attr:`KwsConfig.cut_keep`): the call
        probability with all but the window's last ``k`` frames replaced by the
        background, the :data:`CUT_BACKGROUND` quietest frames of the buffer
        (the last 3 s) in their order, repeated as needed."""
        loudness = self._feats.mean(axis=1)
        quiet = np.sort(np.argsort(loudness)[:CUT_BACKGROUND])
        background = self._feats[quiet]
        views = []
        for window in windows:
            for keep in self.config.cut_keep:
                view = window.copy()
                fill = WINDOW_FRAMES - keep
                view[:fill] = background[np.arange(fill) % len(background)]
                views.append(view)
        probs = self.model.probabilities(np.stack(views))[:, 0]
        return probs.reshape(len(windows), -1).max(axis=1).astype(float).tolist()

    def _word_start(self, end: float) -> float:
        """Where the loud stretch that ends the word at ``end`` began (short dips
        bridged), from the last second and a half of loudness; 0.15-0.9 s back."""
        db = 10 * np.log10(np.asarray(self._energy) + 1e-12)
        first = self._frames_done - len(db)  # frame index of db[0]
        times = (first + np.arange(len(db))) * HOP / RATE
        inside = np.flatnonzero((times >= end - 0.9) & (times < end))
        if len(inside) == 0:
            return max(end - 0.45, 0.0)
        peak = inside[np.argmax(db[inside])]
        loud = db > max(db[peak] - 20.0, float(np.percentile(db, 10)) + 6.0)
        i, quiet = peak, 0
        while i > inside[0] and quiet < 8:
            i -= 1
            quiet = 0 if loud[i] else quiet + 1
        start = float(times[i + quiet])
        return round(min(max(start, end - 0.9), end - 0.15), 3) if end > 0.15 else 0.0

"""Audio sources for the listener: a WAV file or a microphone, as 16 kHz mono PCM.

Every source is an iterator of ``bytes`` chunks of 16-bit little-endian samples at
:data:`RATE`. Files are read with the standard ``wave`` module (any rate, mono or
stereo, 8/16/32-bit) and resampled; other formats go through ``sox`` when it is
installed. The microphone is read with ``sounddevice`` (PortAudio, Debian package
``libportaudio2``) or, without PortAudio, with ``arecord`` (Debian ``alsa-utils``).
"""

from __future__ import annotations

import io
import shutil
import subprocess
import threading
import wave
from collections.abc import Iterator

import numpy as np

RATE = 16000
CHUNK_SECONDS = 0.1


class AudioError(RuntimeError):
    """No audio could be read: a missing file, an unreadable format, no microphone."""


def to_pcm16(samples: np.ndarray, rate: int) -> bytes:
    """Float or integer mono samples at ``rate`` as 16 kHz 16-bit PCM bytes."""
    x = np.asarray(samples)
    if x.dtype.kind in "iu":
        x = x.astype(np.float32) / float(np.iinfo(x.dtype).max)
    x = x.astype(np.float32)
    if rate != RATE and len(x):
        n = int(round(len(x) * RATE / rate))
        x = np.interp(np.arange(n) * (rate / RATE), np.arange(len(x)), x)
    return (np.clip(x, -1.0, 1.0) * 32767).astype("<i2").tobytes()


def read_wav(path: str) -> bytes:
    """The whole file as 16 kHz mono PCM (WAV natively, other formats with sox).

    Raises:
        AudioError: the file is missing or cannot be decoded.
    """
    try:
        with wave.open(path, "rb") as w:
            width, channels, rate = w.getsampwidth(), w.getnchannels(), w.getframerate()
            raw = w.readframes(w.getnframes())
    except FileNotFoundError:
        raise AudioError(f"no such audio file: {path}") from None
    except (wave.Error, EOFError) as exc:
        return _read_with_sox(path, exc)
    dtype = {1: np.uint8, 2: "<i2", 4: "<i4"}.get(width)
    if dtype is None:
        return _read_with_sox(path, f"{8 * width}-bit samples")
    x = np.frombuffer(raw, dtype=dtype)
    if width == 1:
        x = (x.astype(np.float32) - 128.0) / 128.0
    x = x.reshape(-1, channels)
    mono = x.astype(np.float32).mean(axis=1) if channels > 1 else x[:, 0]
    if x.dtype.kind == "i":
        mono = mono.astype(np.float32) / float(np.iinfo(x.dtype).max)
    return to_pcm16(mono, rate)


def _read_with_sox(path: str, why: object) -> bytes:
    sox = shutil.which("sox")
    if sox is None:
        raise AudioError(f"{path} is not a WAV file this reader understands ({why}); "
                         "install sox (Debian package 'sox') to read other formats")
    cmd = [sox, path, "-t", "raw", "-r", str(RATE), "-c", "1", "-b", "16", "-e",
           "signed-integer", "-L", "-"]
    done = subprocess.run(cmd, capture_output=True, check=False)
    if done.returncode != 0:
        msg = done.stderr.decode(errors="replace").strip()
        raise AudioError(f"cannot decode {path}: {msg}")
    return done.stdout


def file_chunks(path: str, seconds: float = CHUNK_SECONDS) -> Iterator[bytes]:
    """The file as consecutive PCM chunks of ``seconds`` each (the last may be shorter).

    The file is read at once, so a missing or broken file raises here.

    Raises:
        AudioError: as :func:`read_wav`.
    """
    pcm = read_wav(path)
    step = int(RATE * seconds) * 2
    return (pcm[i:i + step] for i in range(0, len(pcm), step))


class Microphone:
    """Chunks from a capture device until :meth:`close` is called.

    Args:
        device: a PortAudio device index or name, or an ALSA device (``hw:1``,
            ``plughw:1,0``, or a card number) when ``arecord`` is used; None for the
            default device.

    Raises:
        AudioError: no capture device, or neither PortAudio nor arecord installed.
    """

    def __init__(self, device: int | str | None = None):
        self.device = device
        self._closed = threading.Event()
        self._proc: subprocess.Popen[bytes] | None = None
        self._stream = None
        try:
            self._open_portaudio()
        except _NoPortAudio as exc:
            self._open_arecord(str(exc))

    def _open_portaudio(self) -> None:
        try:
            import sounddevice as sd
        except (ImportError, OSError) as exc:  # OSError: libportaudio2 missing
            raise _NoPortAudio(f"PortAudio unavailable: {exc}") from None
        device = int(self.device) if str(self.device).isdigit() else self.device
        try:
            inputs = [d for d in sd.query_devices() if d["max_input_channels"] > 0]
            if not inputs:
                raise AudioError("no microphone found: PortAudio lists no capture "
                                 "device (plug one in, or use --file)")
            self._stream = sd.RawInputStream(samplerate=RATE, channels=1, dtype="int16",
                                             device=device,
                                             blocksize=int(RATE * CHUNK_SECONDS))
            self._stream.start()
        except sd.PortAudioError as exc:
            raise AudioError(f"cannot open microphone {self.device!r}: {exc} "
                             "(list devices with 'python -m sounddevice')") from None

    def _open_arecord(self, why: str) -> None:
        arecord = shutil.which("arecord")
        if arecord is None:
            raise AudioError(f"no microphone support: {why}, and arecord is not "
                             "installed (Debian packages libportaudio2 or alsa-utils)")
        listing = subprocess.run([arecord, "-l"], capture_output=True, text=True,
                                 check=False)
        if "card" not in listing.stdout:
            raise AudioError("no microphone found: 'arecord -l' lists no capture "
                             "device (plug one in, or use --file)")
        cmd = [arecord, "-q", "-t", "raw", "-f", "S16_LE", "-c", "1", "-r", str(RATE)]
        if self.device is not None:
            dev = str(self.device)
            cmd += ["-D", f"plughw:{dev}" if dev.replace(",", "").isdigit() else dev]
        self._proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE)

    def __iter__(self) -> Iterator[bytes]:
        size = int(RATE * CHUNK_SECONDS)
        while not self._closed.is_set():
            if self._stream is not None:
                data, _overflowed = self._stream.read(size)
                yield bytes(data)
                continue
            assert self._proc is not None and self._proc.stdout is not None
            data = self._proc.stdout.read(size * 2)
            if not data:
                err = self._proc.stderr.read().decode(errors="replace").strip() \
                    if self._proc.stderr else ""
                if self._closed.is_set():
                    return
                raise AudioError(f"microphone stopped: {err or 'arecord exited'}")
            yield data

    def close(self) -> None:
        """Stop capturing; the iterator ends after the chunk in progress."""
        self._closed.set()
        if self._stream is not None:
            self._stream.stop()
            self._stream.close()
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()


class _NoPortAudio(Exception):
    pass


def say(text: str, voice: str, speed: int = 160, pitch: int = 50) -> np.ndarray:
    """espeak-ng speech at 16 kHz, float32, leading/trailing silence trimmed (the
    synthetic voices of the demo's sound track and of the voice evaluations)."""
    out = subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch),
                          "--stdout", text], capture_output=True, check=True).stdout
    with wave.open(io.BytesIO(out)) as w:
        rate = w.getframerate()
        x = np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(np.float32)
    x /= 32768.0
    loud = np.flatnonzero(np.abs(x) > 0.01)
    x = x[loud[0]:loud[-1] + 1] if len(loud) else x
    n = int(len(x) * RATE / rate)
    y = np.interp(np.arange(n) * rate / RATE, np.arange(len(x)), x)
    return y.astype(np.float32)

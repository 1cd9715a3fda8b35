"""``tableref listen``: print the call words heard on a microphone or in a file."""

from __future__ import annotations

import argparse
import sys

from voice.words import DEFAULT_WORDS


def listen_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``tableref listen``."""
    src = parser.add_mutually_exclusive_group()
    src.add_argument("--device", metavar="N",
                     help="microphone: a device index or name (default: the system's "
                          "default microphone)")
    src.add_argument("--file", metavar="F",
                     help="read an audio file (WAV; other formats need sox) instead")
    parser.add_argument("--words", default=DEFAULT_WORDS, metavar="W1,W2",
                        help="call words, comma-separated: English words, kana, "
                             "romaji, or word=PHONES in ARPAbet (default: %(default)s)")
    parser.add_argument("--engine", choices=("auto", "neural", "pocketsphinx"),
                        default="auto",
                        help="who hears the UNO call: the neural spotter "
                             "(models/uno-kws.pt), keyword search, or auto (neural, "
                             "keyword search when the model is missing; default)")
    parser.add_argument("--model", metavar="PATH", default=None,
                        help="the neural spotter's model (default models/uno-kws.pt)")
    parser.add_argument("--threshold", type=float, default=None, metavar="P",
                        help="neural spotter: call probability that fires, 0..1 "
                             "(larger errs less and hears less; default: tuned, "
                             "stored in the model)")
    parser.add_argument("--colours", action="store_true",
                        help="also hear a wild's colour: red/blue/green/yellow, "
                             "赤/青/緑/黄 (aka/ao/midori/kiiro), with the colour "
                             "spotter (models/colour-kws.pt; keyword search with "
                             "--engine pocketsphinx or without the model)")
    parser.add_argument("--colour-model", metavar="PATH", default=None,
                        help="the colour spotter's model (default "
                             "models/colour-kws.pt)")
    parser.add_argument("--max-level", type=int, default=None, metavar="L",
                        help="keyword search: threshold 1e-L that still counts "
                             "(larger hears more and errs more; default 20)")


def listen(args: argparse.Namespace) -> int:
    """Print one line per call heard: time (s), word, score; 2 on bad input."""
    from voice.audio import AudioError, Microphone, file_chunks
    from voice.kws import ModelError
    from voice.spotter import Spotter, SpotterConfig
    from voice.words import WordError, colour_of, parse_words

    if args.threshold is not None and not 0.0 < args.threshold <= 1.0:
        print(f"tableref listen: --threshold must be between 0 and 1, not "
              f"{args.threshold:g}", file=sys.stderr)
        return 2
    try:
        words = parse_words(args.words)
        extra = {} if args.max_level is None else {"max_level": args.max_level}
        config = SpotterConfig(engine=args.engine, model=args.model,
                               threshold=args.threshold,
                               colour_model=getattr(args, "colour_model", None),
                               **extra)
        spotter = Spotter(words, config, colours=args.colours)
        if spotter.fallback is not None:
            print(f"tableref listen: {spotter.fallback}; using keyword search for "
                  "the UNO call", file=sys.stderr)
        if spotter.colour_fallback is not None:
            print(f"tableref listen: {spotter.colour_fallback}; using keyword "
                  "search for the colours", file=sys.stderr)
        mic = None
        if args.file is not None:
            chunks = file_chunks(args.file)
        else:
            mic = Microphone(args.device)
            chunks = mic
            names = ", ".join(w.name for w in words)
            print(f"listening for {names} on the microphone; Ctrl-C to stop",
                  file=sys.stderr)
    except (AudioError, WordError, ModelError) as exc:
        print(f"tableref listen: {exc}", file=sys.stderr)
        return 2
    except ImportError as exc:
        print(f"tableref listen: the recogniser is not installed ({exc}); "
              "pip install pocketsphinx==5.1.1", file=sys.stderr)
        return 2
    heard = 0

    def show(det) -> None:  # noqa: ANN001
        colour = colour_of(det.word)
        word = f"{det.word} ({colour})" if colour and colour != det.word else det.word
        print(f"{det.end:8.2f}  {word}  {det.score:.2f}", flush=True)

    try:
        for chunk in chunks:
            for det in spotter.feed(chunk):
                heard += 1
                show(det)
        for det in spotter.flush():
            heard += 1
            show(det)
    except AudioError as exc:
        print(f"tableref listen: {exc}", file=sys.stderr)
        return 2
    finally:
        if mic is not None:
            mic.close()
    if args.file is not None:
        print(f"{heard} call(s) in {spotter.seconds:.1f} s of audio", file=sys.stderr)
    return 0

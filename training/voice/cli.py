"""``python -m training.voice``: the spotter's recipe as a command line."""

from __future__ import annotations

import argparse

from .fit import ensemble, load_bank, retune, train

def _band(text: str) -> tuple[float, float]:
    """``LO,HI`` in dB, LO < HI."""
    try:
        lo, hi = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected LO,HI in dB, got {text!r}")
    if not lo < hi:
        raise argparse.ArgumentTypeError(f"LO must be under HI, got {text!r}")
    return lo, hi


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m training.voice",
        description="Train the neural UNO-call spotter (models/uno-kws.pt), or "
        "with --words colours the wild-colour spotter (models/colour-kws.pt).")
    parser.add_argument("--words", choices=("uno", "colours"), default="uno",
                        help="what the spotter hears: the UNO call (models/"
                        "uno-kws.pt) or the four wild colours in English and "
                        "Japanese (models/colour-kws.pt); default %(default)s")
    parser.add_argument("--data", default="/tmp/kws-data",
                        help="where the speech bank is cached (default %(default)s)")
    parser.add_argument("--out", default=None,
                        help="the model file (default models/uno-kws.pt, or "
                        "models/colour-kws.pt with --words colours)")
    parser.add_argument("--steps", type=int, default=6000)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--member-seed", type=int, default=None,
                        help="seed of the weights and the training examples only "
                        "(the speech bank, its split and the validation stay "
                        "those of --seed): another member of an ensemble")
    parser.add_argument("--width", type=int, default=64,
                        help="channels of the network (build_model's width)")
    parser.add_argument("--after-talk", type=float, default=0.0,
                        help="share of the calls without a lead phrase that follow "
                        "a whole talk sentence 0.2-0.9 s earlier (default 0: the "
                        "shipped recipe)")
    parser.add_argument("--chatter", type=float, default=0.0,
                        help="share of the examples whose noise is other people "
                        "talking (babble or crowd), on top of its 2 in 9 among "
                        "the noise kinds (default 0: the shipped recipe)")
    parser.add_argument("--babble-negatives", type=float, default=0.0,
                        help="share of the examples that are other people talking "
                        "(babble or crowd) with no call, labelled noise (default "
                        "0: the shipped recipe)")
    parser.add_argument("--talk-beds", type=float, default=0.0, metavar="SECONDS",
                        help="train on babble and crowd beds this long, drawn for "
                        "this member, instead of the 40 s ones (default 0: the "
                        "shipped recipe)")
    parser.add_argument("--low-snr", type=float, default=0.0, metavar="SHARE",
                        help="share of the speech examples mixed at 0-12 dB SNR "
                        "instead of -5..30 dB (default 0: the shipped recipe)")
    parser.add_argument("--low-snr-band", type=_band, default=None,
                        metavar="LO,HI",
                        help="the SNR band (dB) of --low-snr's share (default "
                        "0,12; a negative LO needs the = form: "
                        "--low-snr-band=-5,10)")
    parser.add_argument("--stretch", type=float, default=0.0, metavar="S",
                        help="resample half of the clips by a factor within 1 +- S "
                        "(speed and pitch: other speakers; default 0: the shipped "
                        "recipe)")
    parser.add_argument("--overlap", type=float, default=0.0, metavar="SHARE",
                        help="share of the colours named on their own that start "
                        "while another voice's short word is still ending (0.05-"
                        "0.25 s of overlap; default 0: the shipped recipe)")
    parser.add_argument("--overlap-after", type=float, default=0.0, metavar="SHARE",
                        help="share of the colours named on their own whose end "
                        "another voice's short word runs over (it starts 0.08-"
                        "0.25 s before the colour ends; default 0: the shipped "
                        "recipe)")
    parser.add_argument("--init", default=None, metavar="MODEL",
                        help="start from this trained network's weights (same "
                        "shape and classes) instead of random ones")
    parser.add_argument("--bank-only", action="store_true",
                        help="only synthesise the speech bank")
    parser.add_argument("--tune-only", action="store_true",
                        help="only tune the threshold of the model in --out")
    parser.add_argument("--ensemble", nargs="+", metavar="MODEL",
                        help="join these trained models into an ensemble in --out "
                        "and tune it")
    args = parser.parse_args(argv)
    if args.out is None:
        args.out = "models/colour-kws.pt" if args.words == "colours" else \
            "models/uno-kws.pt"
    if args.ensemble:
        return ensemble(args)
    if args.tune_only:
        return retune(args)
    if args.bank_only:
        load_bank(args)
        return 0
    return train(args)

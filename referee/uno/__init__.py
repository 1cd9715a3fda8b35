"""Classic UNO (official rules of seed 001, its local rules as options).

``UnoGame`` is registered as game ``uno``; its presets are the instances in
:data:`referee.uno.options.PRESETS` (``official`` ...). A header's ``options``
override single fields of :class:`UnoOptions` by name (``tableref rules
official`` lists them with their sources).

Modules: ``options`` (house rules, presets), ``state`` (what the referee
knows), ``plays`` (legality, the deck check), ``turns`` (plays and card
effects), ``draws`` (draws and passes), ``calls`` (UNO, catch, challenge,
reveal, colour), ``scoring`` (round and game end), ``engine`` (the class,
dispatch, first card, catch windows, views), ``simulate`` (random playouts
with known hands, for tests and benchmarks); ``tgus*`` the TGUS presets.

Speed: ``UnoGame(header)`` decides once whether any TGUS option is on; if
none is, the game is a ``PlainUnoGame`` whose hooks go straight to the
engine's own methods (same rulings, no per-event TGUS bookkeeping).

Extension points (for further presets such as tgus-1/2/3):
    - Options: add fields to ``UnoOptions`` (with ``help``/``source``
      metadata) and a preset instance to ``PRESETS``; ``tableref rules``
      shows them automatically. The stacking answer table is data
      (``stack_answers``: ``"draw2>reverse"`` lets a Reverse deflect a Draw
      Two; the answer's own effect decides who owes next).
    - New events: add ``"type": "method_name"`` to ``UnoGame.handlers`` (a
      subclass or a mixin registered in the class) and write the method as
      ``def on_x(self, ev) -> list[Ruling]``; ``self.ruling(...)`` names the
      rule ``<preset>.<rule>``.
    - Hooks to override: ``first_card_problem`` (in ``plays``) for what may
      be played, ``card_effect`` for what a card does, ``play_cards`` for
      everything after a play was found legal, ``go_out`` for a player
      emptying their hand, ``close_windows`` for UNO-call windows,
      ``finish_round``/``end_game`` for scoring, ``judge_challenge``.
      A TGUS hook that overrides one of these must also be listed in
      ``PlainUnoGame`` (test_uno_fastpath checks it), and a new TGUS option
      goes after ``hand_size_max`` so that it switches the hooks on.
    - State: ``UnoState`` is a plain mutable dataclass; add fields with
      defaults and show them in ``UnoState.to_dict``.
"""

from __future__ import annotations

from .engine import UnoGame
from .options import PRESETS, UnoOptions

__all__ = ["UnoGame", "UnoOptions", "PRESETS"]

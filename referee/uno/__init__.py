"""Classic UNO (official rules of seed 001) and its TGUS house rules (seed 000).

Two game classes, found through the registry by preset (python-chess style):
:class:`UnoGame` runs ``official`` (:data:`~referee.uno.options.PRESETS`) and
:class:`TgusGame`, a subclass, runs ``tgus-1``, ``tgus-2`` and ``tgus-3``
(:data:`~referee.uno.tgus_presets.TGUS_PRESETS`). A header's ``options``
override single fields of the preset's options by name (``tableref rules
official`` lists them with their sources).

Layers, imports running one way (each module imports only those above it):

- data: ``options`` (:class:`UnoOptions`, frozen, every house rule and every
  penalty size a field with ``help``/``source`` and, for a penalty, the
  ``rule`` it belongs to), ``tgus_presets`` (:class:`TgusOptions` and the
  presets), ``state`` (:class:`~referee.uno.state.UnoState`, what the referee
  knows), ``tgus_state`` (the TGUS part), ``plays`` (legality of cards, the
  deck check, card names), ``tgus`` (pure TGUS values: ranking, weights);
- rules, plain functions over (state, options, event) that return rulings
  named through ``say`` (the game's ``ruling``): ``calls`` (UNO call, catch,
  colour), ``challenge`` (``wd4-challenge``), ``play_checks`` (whether a
  play may go down, its refusals), ``turns`` (plays and card effects),
  ``draws`` (draws and passes), ``start`` (the first card),
  ``scoring`` (reveals, round and game end), ``house`` (house-rule events a
  preset does not use, Shuffle Hands), ``tgus_rules`` and ``tgus_facedown``;
- views: ``observe`` (what the table, a player or the referee may see);
- games: ``game`` (:class:`UnoGame`: dispatch through ``handlers`` and the
  steps of a turn), ``tgus_game`` (:class:`TgusGame`, overriding only the
  steps its rules change);
- tools: ``simulate`` / ``tgus_simulate`` (random playouts with known hands).

Every ruling's text is a :class:`referee.text.Text` (English as its value,
Japanese on demand): each rule module defines its sentences, keys
``uno.<name>``, with :func:`referee.text.define` at its top, and builds a
ruling's whole sentence as one ``Text``; the parts it shares (a card's name,
a count of cards, why a card may not be played, the implied-player note)
come as ``Text`` from ``plays`` and ``state``.

To change a rule, find its name (``official.wd4-challenge``) in
docs/rules-uno.md or docs/rules-tgus.md: it names the one module that
implements it and the option that sizes it (the Wild Draw Four challenge
penalties are ``wd4_guilty_penalty`` and ``wd4_challenge_penalty`` in
``options``). To add an event, add ``"type": "on_x"`` to a class's
``handlers`` and write ``on_x(self, ev) -> list[Ruling]`` calling a rule
function. To add a variant, subclass :class:`UnoGame` with its own
``PRESETS`` and register it.
"""

from __future__ import annotations

from .game import UnoGame
from .options import PRESETS, UnoOptions
from .tgus_game import TgusGame
from .tgus_presets import TGUS_PRESETS, TgusOptions

__all__ = ["UnoGame", "TgusGame", "UnoOptions", "TgusOptions", "PRESETS",
           "TGUS_PRESETS"]

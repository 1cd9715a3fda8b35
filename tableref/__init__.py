"""The ``tableref`` command line: one table of subcommands over the product's packages.

``tableref.cli`` holds the table and the entry point; the referee's own
subcommands (``replay``, ``rules``, ``history``, ``export``, ``import``) live
beside it in :mod:`tableref.game_commands` and :mod:`tableref.store_commands`.
The other packages keep their subcommands next to the code they drive
(``vision.commands``, ``web.commands``, ``voice.commands``, ``datasets.commands``,
``training.commands``).
"""
